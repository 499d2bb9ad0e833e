import { z } from 'zod';
import { APPEAL_MAX_CHARS } from '../moderation/reasons';
import { longText, text } from './common';

/** The appeal form's field names as the page shows them. */
export const APPEAL_LABELS = { token: 'Appeal code', appeal: 'Your appeal' } as const;

/** One appeal (#32): the signed code from the decision's mail, and why (10 to 1,000 characters). */
export const appealSchema = z.object({
  token: text(200, 10, APPEAL_LABELS.token),
  appeal: longText(APPEAL_MAX_CHARS, 10, APPEAL_LABELS.appeal),
});
export type AppealInput = z.output<typeof appealSchema>;
