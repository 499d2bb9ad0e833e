import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { listContactMessages, setContactStatus } from '../../../../db/queries/contact';
import { contactQuerySchema, contactStatusSchema } from '../../../../src/lib/schemas/admin';
import { validationHook } from '../../lib/validate';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { auditOf, found, idParam } from './shared';

/** The contact inbox: admins. */
export const contactRoutes = new Hono<AdminEnv>()
  .use(requireRole('admin'))
  .get('/', zValidator('query', contactQuerySchema, validationHook), async (c) => {
    const { page, per_page: perPage, status } = c.req.valid('query');
    const { messages, total } = await listContactMessages(c.get('deps').db, { status, page, perPage });
    return c.json({ messages, total, page, perPage });
  })
  .patch('/:id', idParam, zValidator('json', contactStatusSchema, validationHook), async (c) => {
    const { id } = c.req.valid('param');
    const { status } = c.req.valid('json');
    const audited = auditOf(c, 'status', 'contact', id, { status });
    const message = found(await setContactStatus(c.get('deps').db, id, status, audited), 'message', id);
    return c.json({ message });
  });
