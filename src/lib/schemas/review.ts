// The review forms (#31), shared by the islands and the routes: a review, an owner's reply, a flag,
// a moderator's hide, and the account's mail settings. Text passes the same screening as a
// listing's description (longText: trimmed, 20 to 2,000 characters, no control characters).
import { z } from 'zod';
import { REVIEW_FLAG_REASONS } from '../enums';
import { email, longText, optionalText, text } from './common';
import type { FieldLabels } from './labels';

const flagReasons = REVIEW_FLAG_REASONS.map((r) => r.value) as [
  (typeof REVIEW_FLAG_REASONS)[number]['value'],
  ...(typeof REVIEW_FLAG_REASONS)[number]['value'][],
];

/** A member's review: stars, text, and the name to show (their Discord display name by default). */
export const reviewSchema = z.object({
  /** 1 to 5 stars. */
  rating: z.coerce
    .number({ error: 'Choose 1 to 5 stars.' })
    .int('Choose 1 to 5 stars.')
    .min(1, 'Choose 1 to 5 stars.')
    .max(5, 'Choose 1 to 5 stars.'),
  /** What the member says: 20 to 2,000 characters. */
  body: longText(2000, 20, 'Your review'),
  /**
   * The name shown with it; their Discord display name unless they change it (left empty, as a
   * form without JavaScript sends it, it stays their display name or the one they chose before).
   */
  display_name: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    text(80, 1, 'Display name').optional(),
  ),
});
export type ReviewInput = z.output<typeof reviewSchema>;

/** The review form's fields as the page labels them (the summary of a refused post names them so). */
export const REVIEW_LABELS: FieldLabels = {
  rating: 'Your rating',
  body: 'Your review',
  display_name: 'Shown as',
};

/** The listing owner's reply to one review. */
export const replySchema = z.object({
  /** 2 to 2,000 characters. */
  body: longText(2000, 2, 'Your reply'),
});

/** The reply form's field as the page labels it. */
export const REPLY_LABELS: FieldLabels = { body: 'Your reply' };

/** Anyone signed in flags a review for the moderators. */
export const reviewFlagSchema = z.object({
  reason: z.enum(flagReasons, { error: 'Choose why you flag this review.' }),
  details: optionalText(500, 'Details'),
});

/** A moderator hides a review with a public reason ("off-topic"). */
export const reviewHideSchema = z.object({
  reason: text(120, 3, 'Reason'),
});

/** What a moderator does with a review on the console's Reviews screen. */
export const reviewModerationSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('hide'), reason: text(120, 3, 'Reason') }),
  z.object({ action: z.literal('show') }),
  z.object({ action: z.literal('dismiss_flags') }),
]);

/** The account's mail settings: the address to mail, and whether to be mailed about new reviews. */
export const accountSettingsSchema = z.object({
  email: z.union([z.literal(''), email]).optional(),
  mail_new_reviews: z.boolean().optional(),
});
