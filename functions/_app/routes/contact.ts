import { Hono } from 'hono';
import { createContactMessage } from '../../../db/queries/contact';
import { insertInteractions } from '../../../db/queries/interactions';
import { contactSchema } from '../../../src/lib/schemas/contact';
import { type AppDeps, type AppEnv, requestIdOf } from '../context';
import { formFailure } from '../lib/form-redirect';
import { admit } from '../lib/request';
import { parseWith, readBody } from '../lib/validate';
import { RATE_LIMITS } from '../middleware/rate-limit';
import { verifyTurnstile } from '../middleware/turnstile';

/**
 * `POST /api/contact`: a message for the team, stored with status 'new'. A message about a
 * Premium or Sponsored placement (where the premium call to action leads) is the conversion,
 * recorded here once, worth nothing itself (SPEC section 9 values the call-to-action click).
 */
export const contactRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().post('/', async (c) => {
    const admitted = admit(c, deps, { write: true, limit: RATE_LIMITS.contact });
    if (admitted) await admitted;
    const { kind, data } = await readBody(c);
    try {
      const input = parseWith(contactSchema, data);
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
      if (kind === 'form') return c.redirect('/contact?sent=1', 303);
      return c.json({ message: { id: message.id, status: message.status } }, 201);
    } catch (err) {
      if (kind === 'form') return formFailure(c, '/contact', err);
      throw err;
    }
  });
