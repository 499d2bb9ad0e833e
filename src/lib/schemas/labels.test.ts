import { describe, expect, it } from 'vitest';
import { contactSchema } from './contact';
import { CONTACT_LABELS, invalidFieldsSummary, NEWSLETTER_LABELS, REPORT_LABELS, SUBMISSION_LABELS } from './labels';
import { newsletterSchema } from './newsletter';
import { reportSchema } from './report';
import { submissionSchema } from './submission';

describe('invalidFieldsSummary', () => {
  it('names one refused field by its label in a sentence', () => {
    expect(invalidFieldsSummary(['invite_link'], SUBMISSION_LABELS)).toBe('Please check the Invite link field.');
  });

  it('counts and lists several, once each, in the order given', () => {
    expect(
      invalidFieldsSummary(['server_description', 'invite_link', 'invite_link', 'contact_email'], SUBMISSION_LABELS),
    ).toBe('Please check these 3 fields: Description, Invite link and Contact email.');
  });

  it('shows a name it has no label for as it is, and still says something with none', () => {
    expect(invalidFieldsSummary(['name', 'mystery'], CONTACT_LABELS)).toBe(
      'Please check these 2 fields: Name and mystery.',
    );
    expect(invalidFieldsSummary([], CONTACT_LABELS)).toBe('Please check the form and try again.');
  });
});

describe('the public forms name their fields from one place', () => {
  it.each([
    ['submission', submissionSchema, SUBMISSION_LABELS],
    ['contact', contactSchema, CONTACT_LABELS],
    ['newsletter', newsletterSchema, NEWSLETTER_LABELS],
    ['report', reportSchema, REPORT_LABELS],
  ] as const)('every field of the %s schema has a label', (_name, schema, labels) => {
    expect(Object.keys(schema.shape).filter((field) => !(field in labels))).toEqual([]);
  });

  it('says what is wrong with each submission field in a sentence that names it, never its raw name', () => {
    const result = submissionSchema.safeParse({
      server_name: 'x',
      server_description: 'short',
      category: 'Gaming',
      invite_link: 'https://example.com/not-discord',
      server_image: 'http://example.com/icon.png',
      contact_email: 'nope',
      submitter_name: '',
      terms: false,
    });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));
    expect(messages).toEqual({
      server_name: 'Server name needs at least 2 characters.',
      server_description: 'Description needs at least 20 characters.',
      invite_link: 'Invite link must be a Discord invite, like https://discord.gg/abc123.',
      server_image: 'Icon URL must be a full https:// address, like https://example.com/icon.png.',
      contact_email: 'Contact email must look like name@example.com.',
      submitter_name: 'Your name is required.',
      terms: 'Accept the listing terms to submit your server.',
    });
    for (const message of Object.values(messages)) expect(message).not.toMatch(/[a-z]+_[a-z]+/);
  });

  it('names the contact and newsletter fields too', () => {
    const contact = contactSchema.safeParse({ name: '', email: '', message: 'hi' });
    expect(contact.error?.issues.map((i) => i.message)).toEqual([
      'Name is required.',
      'Email is required.',
      'Message needs at least 10 characters.',
    ]);
    const newsletter = newsletterSchema.safeParse({ email: 'someone@' });
    expect(newsletter.error?.issues.map((i) => i.message)).toEqual(['Email address must look like name@example.com.']);
  });
});
