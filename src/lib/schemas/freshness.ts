import { z } from 'zod';
import { FLAG_VERDICTS, INVITE_STATUSES } from '../enums';
import { pageQuerySchema } from './admin';

/** A moderator's verdict on an anomaly flag (the console's Freshness screen). */
export const flagReviewSchema = z.object({
  /** `confirmed` shows the flag on the listing's page; `dismissed` closes it for 30 days. */
  verdict: z.enum(FLAG_VERDICTS),
});
export type FlagReview = z.infer<typeof flagReviewSchema>;

/** The Freshness screen's listings by invite state: one state ('' or none: any but ok) and a page. */
export const inviteStateQuerySchema = pageQuerySchema.extend({
  status: z
    .enum(INVITE_STATUSES)
    .optional()
    .or(z.literal('').transform(() => undefined)),
});
