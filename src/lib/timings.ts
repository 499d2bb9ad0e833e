/**
 * How long the site's short confirmations show before their element returns to rest: one home for
 * each, so the share button, the owner's embed snippets, the report dialog and the newsletter form
 * agree with each other and with docs.
 */

/** "Link copied!" on the share button and "Copied" beside an embed snippet. */
export const COPIED_MS = 2_000;

/** The report dialog's "Reported" before it closes. */
export const REPORTED_MS = 3_000;

/** The newsletter form's thank-you before the form returns, its email cleared. */
export const NEWSLETTER_THANKS_MS = 3_000;
