import { z } from 'zod';
import { REPORT_REASON_VALUES } from '../enums';
import { honeypot, optionalText } from './common';
import { REPORT_LABELS } from './labels';

/** A visitor's report about a listed server. */
export const reportSchema = z.object({
  server_id: z.coerce
    .number({ error: 'Must be a server id' })
    .int('Must be a server id')
    .positive('Must be a server id'),
  reason: z.enum(REPORT_REASON_VALUES, { error: 'Choose a reason for the report.' }),
  details: optionalText(1000, REPORT_LABELS.details),
  session_id: z.string().trim().max(64).optional(),
  website: honeypot,
  'cf-turnstile-response': z.string().max(4096).optional(),
});
export type ReportInput = z.output<typeof reportSchema>;
