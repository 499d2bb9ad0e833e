import { zValidator } from '@hono/zod-validator';
import { type Context, Hono } from 'hono';
import {
  decideListingEdit,
  editChangesNow,
  getListingEdit,
  listListingEdits,
} from '../../../../db/queries/listing-edits';
import { editDecisionSchema, editQuerySchema } from '../../../../src/lib/schemas/owner';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validate';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { auditOf, found, idParam, notFound, requestRebuild } from './shared';

/**
 * Owners' edits of their listings (#17), reviewed beside new submissions: admins and moderators.
 * Approval writes the diff's new values on the listing, records who changed what in the audit log
 * and requests the rebuild; rejection leaves the listing as it is.
 */
export const editRoutes = new Hono<AdminEnv>()
  .use(requireRole('moderator'))
  .get('/', zValidator('query', editQuerySchema, validationHook), async (c) => {
    const { page, per_page: perPage, status } = c.req.valid('query');
    const { edits, total } = await listListingEdits(c.get('deps').db, { status, page, perPage });
    return c.json({ edits, total, page, perPage });
  })
  .get('/:id', idParam, async (c) => {
    const { id } = c.req.valid('param');
    return c.json({ edit: found(await getListingEdit(c.get('deps').db, id), 'edit', id) });
  })
  .post('/:id/approve', idParam, zValidator('json', editDecisionSchema, validationHook), async (c) => {
    const { edit, server } = await decide(c, c.req.valid('param').id, 'approved', c.req.valid('json').admin_notes);
    if (server) await requestRebuild(c, `owner edit of ${server.slug} approved`, [server.slug]);
    return c.json({ edit, server });
  })
  .post('/:id/reject', idParam, zValidator('json', editDecisionSchema, validationHook), async (c) => {
    const { edit } = await decide(c, c.req.valid('param').id, 'rejected', c.req.valid('json').admin_notes);
    return c.json({ edit });
  });

/**
 * Decides a pending edit as the signed-in operator, its audit row (with the changes as decided) in
 * the decision's batch; 404 for an unknown edit, 409 for one already decided.
 */
async function decide(c: Context<AdminEnv>, id: number, status: 'approved' | 'rejected', notes: string | undefined) {
  const db = c.get('deps').db;
  const pending = found(await getListingEdit(db, id), 'edit', id);
  const audited = auditOf(c, status === 'approved' ? 'approve' : 'reject', 'listing_edit', id, {
    server_id: pending.server_id,
    ...(status === 'approved' ? { owner_id: pending.owner_id } : {}),
    changes: editChangesNow(id),
  });
  const result = await decideListingEdit(db, id, { status, decidedBy: c.get('operator').email, notes }, audited);
  if (result.ok) return result;
  if (result.reason === 'not_found') throw notFound('edit', id);
  throw new ApiError(409, 'already_decided', 'This edit has already been decided');
}
