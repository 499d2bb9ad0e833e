import { z } from 'zod';
import { honeypot, labelledEmail } from './common';
import { NEWSLETTER_LABELS } from './labels';

/** Newsletter signup from the home page box. */
export const newsletterSchema = z.object({
  email: labelledEmail(NEWSLETTER_LABELS.email),
  website: honeypot,
  'cf-turnstile-response': z.string().max(4096).optional(),
});
export type NewsletterSignup = z.output<typeof newsletterSchema>;

/** Unsubscribe request carrying the signed token from an email link. */
export const unsubscribeSchema = z.object({
  token: z.string().trim().min(10, 'Missing token').max(512, 'Invalid token'),
});
