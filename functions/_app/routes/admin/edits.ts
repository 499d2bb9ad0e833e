import { zValidator } from '@hono/zod-validator';
import { type Context, Hono } from 'hono';
import {
  decideListingEdit,
  editChangesNow,
  getListingEdit,
  listListingEdits,
} from '../../../../db/queries/listing-edits';
import { getServerById } from '../../../../db/queries/servers';
import { editDecisionSchema, editQuerySchema } from '../../../../src/lib/schemas/owner';
import { ApiError } from '../../lib/errors';
import { validationHook } from '../../lib/validate';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { auditOf, found, idParam, notFound, prepareRebuild } from './shared';

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
  // An approval changes the listing's page (owners edit no name, so its slug stays): recorded in the decision's batch.
  const listing = status === 'approved' ? await getServerById(db, pending.server_id) : null;
  const change = listing ? prepareRebuild(c, `owner edit of ${listing.slug} approved`, [listing.slug]) : undefined;
  const audited = auditOf(
    c,
    status === 'approved' ? 'approve' : 'reject',
    'listing_edit',
    id,
    {
      server_id: pending.server_id,
      ...(status === 'approved' ? { owner_id: pending.owner_id } : {}),
      changes: editChangesNow(id),
    },
    change,
  );
  const result = await decideListingEdit(db, id, { status, decidedBy: c.get('operator').email, notes }, audited);
  if (result.ok) {
    if (result.server) await change?.requested();
    return result;
  }
  if (result.reason === 'not_found') throw notFound('edit', id);
  throw new ApiError(409, 'already_decided', 'This edit has already been decided');
}
