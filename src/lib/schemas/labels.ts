// What each public form calls its fields, in one place: the forms' <label>s, the schemas' messages
// and the sentence that sums up a refused form all read these. No zod here, so an island that
// only needs the words does not ship the validator.

/** The submit form's fields (`submissionSchema`, `SubmitForm`). */
export const SUBMISSION_LABELS = {
  server_name: 'Server name',
  category: 'Category',
  subcategory: 'Subcategory',
  language: 'Primary language',
  region: 'Region',
  server_description: 'Description',
  invite_link: 'Invite link',
  server_image: 'Icon URL',
  member_count: 'Total members',
  active_users: 'Estimated online members',
  features: 'Features',
  submitter_name: 'Your name',
  contact_email: 'Contact email',
  is_owner: 'I own or manage this server',
  terms: 'Listing terms',
  website: 'Website',
  'cf-turnstile-response': 'Verification',
} as const;

/** The contact form's fields (`contactSchema`, `ContactForm`). */
export const CONTACT_LABELS = {
  name: 'Name',
  email: 'Email',
  subject: 'Subject',
  priority: 'Priority',
  message: 'Message',
  website: 'Website',
  'cf-turnstile-response': 'Verification',
} as const;

/** The newsletter box's field (`newsletterSchema`, `NewsletterForm.astro`). */
export const NEWSLETTER_LABELS = {
  email: 'Email address',
  website: 'Website',
  'cf-turnstile-response': 'Verification',
} as const;

/** The report dialog's fields (`reportSchema`, `ServerActions.astro`). */
export const REPORT_LABELS = {
  server_id: 'Server',
  reason: 'Reason',
  details: 'Details',
  session_id: 'Session',
  website: 'Website',
  'cf-turnstile-response': 'Verification',
} as const;

/** Field name to label, for any of the forms above. */
export type FieldLabels = Readonly<Record<string, string>>;

/** "A", "A and B", "A, B and C". */
const listing = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/**
 * The sentence a refused form shows above its fields, naming them by their labels:
 * "Please check the Invite link field." / "Please check these 3 fields: Description, Invite link and Contact email."
 * Unknown names are shown as they are; the same field named twice counts once.
 */
export function invalidFieldsSummary(fields: readonly string[], labels: FieldLabels): string {
  const names = [...new Set(fields.map((f) => labels[f] ?? f).filter(Boolean))];
  if (names.length === 0) return 'Please check the form and try again.';
  if (names.length === 1) return `Please check the ${names[0]} field.`;
  return `Please check these ${names.length} fields: ${listing(names)}.`;
}
