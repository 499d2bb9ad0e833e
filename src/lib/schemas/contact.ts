import { z } from 'zod';
import { CONTACT_PRIORITIES, CONTACT_SUBJECT_VALUES } from '../enums';
import { email, honeypot, longText, text } from './common';

/** The contact form. */
export const contactSchema = z.object({
  name: text(100),
  email,
  subject: z.enum(CONTACT_SUBJECT_VALUES, { error: 'Choose a subject' }).default('general'),
  message: longText(5000, 10),
  priority: z.enum(CONTACT_PRIORITIES, { error: 'Choose a priority' }).default('normal'),
  website: honeypot,
  'cf-turnstile-response': z.string().max(4096).optional(),
});
export type ContactInput = z.output<typeof contactSchema>;
