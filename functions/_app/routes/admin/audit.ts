import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { listAudit } from '../../../../db/queries/audit';
import { pageQuerySchema } from '../../../../src/lib/schemas/admin';
import { validationHook } from '../../lib/validate';
import { type AdminEnv, requireRole } from '../../middleware/auth';

/** The audit log, newest first: admins. */
export const auditRoutes = new Hono<AdminEnv>()
  .use(requireRole('admin'))
  .get('/', zValidator('query', pageQuerySchema, validationHook), async (c) => {
    const { page, per_page: perPage } = c.req.valid('query');
    const { entries, total } = await listAudit(c.get('deps').db, { page, perPage });
    return c.json({ entries, total, page, perPage });
  });
