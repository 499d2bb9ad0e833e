import { Hono } from 'hono';
import { createContactMessage } from '../../../db/queries/contact';
import { contactSchema } from '../../../src/lib/schemas/contact';
import type { AppEnv } from '../context';
import { formFailure } from '../lib/form-redirect';
import { parseWith, readBody } from '../lib/validate';
import { originCheck } from '../middleware/origin-check';
import { RATE_LIMITS, rateLimit } from '../middleware/rate-limit';
import { verifyTurnstile } from '../middleware/turnstile';

/** `POST /api/contact`: a message for the team, stored with status 'new'. */
export const contactRoutes = new Hono<AppEnv>().post('/', originCheck(), rateLimit(RATE_LIMITS.contact), async (c) => {
  const { kind, data } = await readBody(c);
  try {
    const input = parseWith(contactSchema, data);
    await verifyTurnstile(c, data);
    const message = await createContactMessage(c.get('deps').db, {
      name: input.name,
      email: input.email,
      subject: input.subject,
      message: input.message,
      priority: input.priority,
    });
    if (kind === 'form') return c.redirect('/contact?sent=1', 303);
    return c.json({ message: { id: message.id, status: message.status } }, 201);
  } catch (err) {
    if (kind === 'form') return formFailure(c, '/contact', err);
    throw err;
  }
});
