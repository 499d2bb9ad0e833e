// Type tests (vitest typecheck runs them through tsc, so a mismatch fails a counted test): each shared zod schema
// stays in step with the table it writes. Every key a schema outputs, but for the form-only ones,
// must be an insertable column that takes the schema's type: renaming or retyping a column, or a
// field, fails the type check and names the key.
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { ContactInput } from '../src/lib/schemas/contact';
import type { InteractionInput } from '../src/lib/schemas/interaction';
import type { NewsletterSignup } from '../src/lib/schemas/newsletter';
import type { ReportInput } from '../src/lib/schemas/report';
import type { serverSchema } from '../src/lib/schemas/server';
import type { Submission } from '../src/lib/schemas/submission';
import type { ServerWrite } from './queries/servers';
import type {
  contactMessages,
  newsletterSubscribers,
  serverReports,
  serverSubmissions,
  userInteractions,
} from './schema';

/** Fields a form posts that are never stored: the honeypot, the Turnstile token, the terms box. */
type FormOnly = 'website' | 'cf-turnstile-response' | 'terms';

/** The keys of `Out` (form-only ones aside) that are not a column of `Insert`, or whose type the column does not take. */
type Mismatched<Out, Insert> = {
  [K in Exclude<keyof Out, FormOnly>]-?: K extends keyof Insert ? (Out[K] extends Insert[K] ? never : K) : K;
}[Exclude<keyof Out, FormOnly>];

describe('the shared zod schemas and the tables they write', () => {
  it('a submission is a server_submissions row', () => {
    expectTypeOf<Mismatched<Submission, typeof serverSubmissions.$inferInsert>>().toEqualTypeOf<never>();
  });

  it('a report is a server_reports row', () => {
    expectTypeOf<Mismatched<ReportInput, typeof serverReports.$inferInsert>>().toEqualTypeOf<never>();
  });

  it('a contact message is a contact_messages row', () => {
    expectTypeOf<Mismatched<ContactInput, typeof contactMessages.$inferInsert>>().toEqualTypeOf<never>();
  });

  it('a newsletter signup is a newsletter_subscribers row', () => {
    expectTypeOf<Mismatched<NewsletterSignup, typeof newsletterSubscribers.$inferInsert>>().toEqualTypeOf<never>();
  });

  it('a browser event is a user_interactions row', () => {
    expectTypeOf<Mismatched<InteractionInput, typeof userInteractions.$inferInsert>>().toEqualTypeOf<never>();
  });

  it("an operator's listing edit is a discord_servers row (the slug derived from the name when absent)", () => {
    expectTypeOf<Mismatched<z.output<typeof serverSchema>, ServerWrite>>().toEqualTypeOf<never>();
  });

  it('the check itself names a key that is no column, and one the column cannot take', () => {
    expectTypeOf<Mismatched<{ nickname: string }, typeof contactMessages.$inferInsert>>().toEqualTypeOf<'nickname'>();
    expectTypeOf<
      Mismatched<{ priority: 'someday' }, typeof contactMessages.$inferInsert>
    >().toEqualTypeOf<'priority'>();
    expectTypeOf<Mismatched<{ website: string }, typeof contactMessages.$inferInsert>>().toEqualTypeOf<never>();
  });
});
