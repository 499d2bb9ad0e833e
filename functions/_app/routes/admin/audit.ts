import { Hono } from 'hono';
import { listAudit } from '../../../../db/queries/audit';
import { pageQuerySchema } from '../../../../src/lib/schemas/admin';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { parseQuery } from './shared';

/** The audit log, newest first: admins. */
export const auditRoutes = new Hono<AdminEnv>().use(requireRole('admin')).get('/', async (c) => {
  const q = parseQuery(c, pageQuerySchema);
  const { entries, total } = await listAudit(c.get('deps').db, { page: q.page, perPage: q.per_page });
  return c.json({ entries, total, page: q.page, perPage: q.per_page });
});
