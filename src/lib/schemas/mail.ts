import { z } from 'zod';
import { MAIL_KINDS, MAIL_STATUSES } from '../enums';
import { pageQuerySchema } from './admin';

/** Query of the console's Outbox screen: a page, optionally of one status and one kind. */
export const mailQuerySchema = pageQuerySchema.extend({
  status: z
    .enum(MAIL_STATUSES)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  kind: z
    .enum(MAIL_KINDS)
    .optional()
    .or(z.literal('').transform(() => undefined)),
});
export type MailQuery = z.output<typeof mailQuerySchema>;
