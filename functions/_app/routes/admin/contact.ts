import { Hono } from 'hono';
import { listContactMessages, setContactStatus } from '../../../../db/queries/contact';
import { contactQuerySchema, contactStatusSchema } from '../../../../src/lib/schemas/admin';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { audit, idParam, notFound, parseBody, parseQuery } from './shared';

/** The contact inbox: admins. */
export const contactRoutes = new Hono<AdminEnv>()
  .use(requireRole('admin'))
  .get('/', async (c) => {
    const q = parseQuery(c, contactQuerySchema);
    const { messages, total } = await listContactMessages(c.get('deps').db, {
      status: q.status,
      page: q.page,
      perPage: q.per_page,
    });
    return c.json({ messages, total, page: q.page, perPage: q.per_page });
  })
  .patch('/:id', async (c) => {
    const id = idParam(c);
    const { status } = await parseBody(c, contactStatusSchema);
    const message = await setContactStatus(c.get('deps').db, id, status);
    if (!message) throw notFound('message', id);
    await audit(c, 'status', 'contact', id, { status });
    return c.json({ message });
  });
