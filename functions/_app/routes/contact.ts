import { Hono } from 'hono';
import { createContactMessage } from '../../../db/queries/contact';
import { insertInteractions } from '../../../db/queries/interactions';
import { CONTACT_SUBJECTS } from '../../../src/lib/enums';
import { contactSchema } from '../../../src/lib/schemas/contact';
import { CONTACT_LABELS } from '../../../src/lib/schemas/labels';
import type { AppDeps, AppEnv } from '../context';
import { publicForm } from '../lib/form-redirect';
import { RATE_LIMITS } from '../lib/rate-limits';
import { body } from '../lib/validate';
import { contactAckMail } from '../mail/contact-ack';
import { contactMessageMail } from '../mail/contact-message';
import { mailSite } from '../mail/site';
import { rateLimit } from '../middleware/rate-limit';
import { turnstile } from '../middleware/turnstile';

/**
 * `POST /api/contact`: a message for the team, stored with status 'new'. A message about a
 * Premium or Sponsored placement (where the premium call to action leads) is the conversion,
 * recorded here once, worth nothing itself (the call-to-action click carries the value).
 */
export const contactRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().post(
    '/',
    publicForm({ path: '/contact', action: '/api/contact', labels: CONTACT_LABELS }),
    rateLimit(RATE_LIMITS.contact),
    body(contactSchema, { labels: CONTACT_LABELS, forms: true }),
    turnstile(deps),
    async (c) => {
      const input = c.req.valid('json');
      // The message to SUPPORT_EMAIL (Reply-To the visitor) and the acknowledgement, stored with it (#16).
      const site = mailSite(deps.env);
      const subject = CONTACT_SUBJECTS.find((s) => s.value === input.subject)?.label ?? input.subject;
      const event = `contact:${crypto.randomUUID()}`;
      const message = await createContactMessage(
        deps.db,
        {
          name: input.name,
          email: input.email,
          subject: input.subject,
          message: input.message,
          priority: input.priority,
        },
        [
          {
            kind: 'contact_message',
            dedupeKey: `${event}:support`,
            to: deps.env.SUPPORT_EMAIL,
            replyTo: input.email,
            mail: contactMessageMail(site, { ...input, subject, priority: input.priority ?? 'normal' }),
          },
          {
            kind: 'contact_ack',
            dedupeKey: `${event}:ack`,
            to: input.email,
            mail: contactAckMail(site, { subject }),
          },
        ],
      );
      if (input.subject === 'premium') {
        try {
          await insertInteractions(deps.db, {
            interaction_type: 'conversion',
            target_type: 'premium_cta',
            target_id: String(message.id),
            metadata: { action: 'premium_enquiry' },
            user_agent: c.req.header('user-agent')?.slice(0, 256) ?? null,
            ip_address: c.get('ipHash'),
            conversion_value: null,
          });
        } catch (err) {
          // Tracking errors are logged and swallowed; the message itself stands.
          console.warn(`[${c.get('requestId')}] premium conversion not recorded:`, err);
        }
      }
      if (c.get('body')?.kind === 'form') return c.redirect('/contact/sent', 303);
      return c.json({ message: { id: message.id, status: message.status } }, 201);
    },
  );
