import { z } from 'zod';
import { CATEGORY_NAMES, subcategoryNames } from '../categories';
import { parseDiscordInvite } from '../invite';
import { checkbox, count, honeypot, labelledEmail, longText, optionalText, publicImageUrl, text } from './common';
import { SUBMISSION_LABELS as L } from './labels';
import { optionalLanguage, optionalRegion } from './language';

/** Why a subcategory is refused: it is not one of the chosen category's. */
export const subcategoryMessage = (category: string): string => {
  const names = subcategoryNames(category);
  return names.length ? `Choose a subcategory of ${category}: ${names.join(', ')}` : `${category} has no subcategories`;
};

/** An optional subcategory name: empty (the form's "None") means none. */
export const optionalSubcategory = z
  .string({ error: 'Must be text' })
  .trim()
  .max(60, 'At most 60 characters')
  .optional()
  .transform((v) => v || undefined);

/** A server owner's submission, as the submit form and `POST /api/submissions` accept it. */
export const submissionSchema = z
  .object({
    /** Server name as shown on the card. */
    server_name: text(100, 2, L.server_name),
    /** What the community is about, shown as the card description. */
    server_description: longText(2000, 20, L.server_description),
    /** One of the five listed categories. */
    category: z.enum(CATEGORY_NAMES, { error: `Choose a category: ${CATEGORY_NAMES.join(', ')}.` }),
    /** Optional: a subcategory of `category` (its subcategory page lists the server once approved). */
    subcategory: optionalSubcategory,
    /** Optional: the community's primary language, an ISO 639-1 code of src/lib/languages.ts (#19). */
    language: optionalLanguage,
    /** Optional: its region, an ISO 3166-1 alpha-2 code (#19). */
    region: optionalRegion,
    /** A Discord invite link; stored in its canonical https://discord.gg/CODE form. */
    invite_link: z
      .string({ error: `${L.invite_link} must be text.` })
      .trim()
      .max(200, `${L.invite_link} can be at most 200 characters.`)
      .transform((v, ctx) => {
        const invite = parseDiscordInvite(v);
        if (!invite) {
          ctx.addIssue({
            code: 'custom',
            message: v
              ? `${L.invite_link} must be a Discord invite, like https://discord.gg/abc123.`
              : `${L.invite_link} is required.`,
          });
          return z.NEVER;
        }
        return invite.url;
      }),
    /** Square icon, https on a public host (moderators' and visitors' browsers load it). */
    server_image: publicImageUrl(L.server_image),
    /** Contact address for the review outcome. */
    contact_email: labelledEmail(L.contact_email),
    /** One feature per line; becomes the listing's pros on approval. */
    features: optionalText(2000, L.features),
    /** Ignored: the stored count is Discord's approximate member count, read when the invite is checked (#15). */
    member_count: count.optional(),
    /** Ignored: the stored count is Discord's approximate online count, read when the invite is checked (#15). */
    active_users: count.optional(),
    /** Who is submitting. */
    submitter_name: text(100, 1, L.submitter_name),
    /** Whether the submitter owns the server (checked by default on the form). */
    is_owner: checkbox,
    /** The terms checkbox must be ticked. */
    terms: checkbox.refine((v) => v, 'Accept the listing terms to submit your server.'),
    website: honeypot,
    /** Cloudflare Turnstile token, checked server-side when configured. */
    'cf-turnstile-response': z.string().max(4096).optional(),
  })
  .refine((v) => !v.subcategory || subcategoryNames(v.category).includes(v.subcategory), {
    path: ['subcategory'],
    // A function, so the message names the chosen category's subcategories.
    error: (issue) => subcategoryMessage(String((issue.input as { category?: unknown })?.category ?? '')),
  });
export type SubmissionInput = z.input<typeof submissionSchema>;
export type Submission = z.output<typeof submissionSchema>;

/** Splits the multi-line features text into trimmed, non-empty lines. */
export const featureLines = (features: string | null | undefined): string[] =>
  (features ?? '')
    .split(/\r?\n/)
    .map((l) => l.replace(/^[-*•]\s*/, '').trim())
    .filter(Boolean);
