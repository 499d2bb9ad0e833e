import { z } from 'zod';
import { CONTACT_PRIORITIES, CONTACT_SUBJECT_VALUES } from '../enums';
import { honeypot, labelledEmail, longText, text } from './common';
import { CONTACT_LABELS as L } from './labels';

/** The contact form. */
export const contactSchema = z.object({
  name: text(100, 1, L.name),
  email: labelledEmail(L.email),
  subject: z.enum(CONTACT_SUBJECT_VALUES, { error: 'Choose a subject from the list.' }).default('general'),
  message: longText(5000, 10, L.message),
  priority: z.enum(CONTACT_PRIORITIES, { error: 'Choose a priority from the list.' }).default('normal'),
  website: honeypot,
  'cf-turnstile-response': z.string().max(4096).optional(),
});
export type ContactInput = z.output<typeof contactSchema>;
