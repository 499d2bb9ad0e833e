import { Hono } from 'hono';
import { createContactMessage } from '../../../db/queries/contact';
import { contactSchema } from '../../../src/lib/schemas/contact';
import type { AppDeps, AppEnv } from '../context';
import { formFailure } from '../lib/form-redirect';
import { admit } from '../lib/request';
import { parseWith, readBody } from '../lib/validate';
import { RATE_LIMITS } from '../middleware/rate-limit';
import { verifyTurnstile } from '../middleware/turnstile';

/** `POST /api/contact`: a message for the team, stored with status 'new'. */
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
      if (kind === 'form') return c.redirect('/contact?sent=1', 303);
      return c.json({ message: { id: message.id, status: message.status } }, 201);
    } catch (err) {
      if (kind === 'form') return formFailure(c, '/contact', err);
      throw err;
    }
  });
