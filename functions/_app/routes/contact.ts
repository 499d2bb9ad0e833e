import { Hono } from 'hono';
import { createContactMessage } from '../../../db/queries/contact';
import { insertInteractions } from '../../../db/queries/interactions';
import { contactSchema } from '../../../src/lib/schemas/contact';
import { CONTACT_LABELS } from '../../../src/lib/schemas/labels';
import { type AppDeps, type AppEnv, requestIdOf } from '../context';
import { formFailure, type PublicForm } from '../lib/form-redirect';
import { admit } from '../lib/request';
import { parseWith, readBody } from '../lib/validate';
import { RATE_LIMITS } from '../middleware/rate-limit';
import { verifyTurnstile } from '../middleware/turnstile';

/** The contact form, for the answer to a refused post without JavaScript. */
const CONTACT_FORM: PublicForm = { path: '/contact', action: '/api/contact', labels: CONTACT_LABELS };

/**
 * `POST /api/contact`: a message for the team, stored with status 'new'. A message about a
 * Premium or Sponsored placement (where the premium call to action leads) is the conversion,
 * recorded here once, worth nothing itself (SPEC section 9 values the call-to-action click).
 */
export const contactRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().post('/', async (c) => {
    let body: Awaited<ReturnType<typeof readBody>> | undefined;
    try {
      const admitted = admit(c, deps, { write: true, limit: RATE_LIMITS.contact });
      if (admitted) await admitted;
      body = await readBody(c);
      const { kind, data } = body;
      const input = parseWith(contactSchema, data, CONTACT_LABELS);
      await verifyTurnstile(c, data);
      const message = await createContactMessage(deps.db, {
        name: input.name,
        email: input.email,
        subject: input.subject,
        message: input.message,
        priority: input.priority,
      });
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
          // Tracking errors are logged and swallowed (SPEC section 8); the message itself stands.
          console.warn(`[${requestIdOf(c)}] premium conversion not recorded:`, err);
        }
      }
      if (kind === 'form') return c.redirect('/contact/sent', 303);
      return c.json({ message: { id: message.id, status: message.status } }, 201);
    } catch (err) {
      return formFailure(c, CONTACT_FORM, err, body);
    }
  });
