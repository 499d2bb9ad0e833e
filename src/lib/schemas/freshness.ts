import { z } from 'zod';
import { FLAG_VERDICTS, INVITE_STATUSES } from '../enums';

/** A moderator's verdict on an anomaly flag (the console's Freshness screen). */
export const flagReviewSchema = z.object({
  /** `confirmed` shows the flag on the listing's page; `dismissed` closes it for 30 days. */
  verdict: z.enum(FLAG_VERDICTS),
});
export type FlagReview = z.infer<typeof flagReviewSchema>;

/** The Freshness screen's listings by invite state: one status (any not ok by default) and a page. */
export const inviteStateQuerySchema = z.object({
  status: z.enum(INVITE_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(200).default(25),
});
