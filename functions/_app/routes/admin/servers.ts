import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { listServerAnalytics } from '../../../../db/queries/analytics';
import { INSERTED_ID } from '../../../../db/queries/audit';
import { noSlotsElsewhere, ordersHoldingListing, sponsoredSlotsElsewhere } from '../../../../db/queries/orders';
import {
  createServer,
  deleteServer,
  getServerById,
  listServersForConsole,
  setServerActive,
  updateServer,
} from '../../../../db/queries/servers';
import { categoryChangeRefusal } from '../../../../src/lib/pricing/category-change';
import { REMOVAL_RACED, removalRefusal } from '../../../../src/lib/pricing/order-machine';
import {
  adminServerQuerySchema,
  analyticsQuerySchema,
  placementSchema,
  visibilitySchema,
} from '../../../../src/lib/schemas/admin';
import { HIDE_NEEDS_REASONS, PAID_NEEDS_LINK, serverSchema } from '../../../../src/lib/schemas/server';
import { hideWithReasons } from '../../lib/decisions';
import { ApiError } from '../../lib/errors';
import type { PendingPublish } from '../../lib/site-changes';
import { validationHook } from '../../lib/validate';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { auditOf, conflictOnDuplicate, found, idParam, notFound, prepareRebuild } from './shared';

const slugTaken = conflictOnDuplicate('slug_taken', 'Another server has this slug');
/** A category change kept by a Sponsored order that closed again before its reasons could be read. */
const SLOT_RACED = 'A Sponsored order of this listing changed while it was being saved: save again.';
/** The 409 of a category change a Sponsored slot keeps, on the field. */
const slotHeld = (why: string) => new ApiError(409, 'sponsored_slot_held', why, [{ path: 'category', message: why }]);

/** Listings: moderators may search and show/hide; everything else is for admins. */
export const serverRoutes = new Hono<AdminEnv>()
  .get('/', requireRole('moderator'), zValidator('query', adminServerQuerySchema, validationHook), async (c) => {
    const { page, per_page: perPage, search } = c.req.valid('query');
    const { servers, total } = await listServersForConsole(c.get('deps').db, { search, page, perPage });
    return c.json({ servers, total, page, perPage });
  })
  .get('/:id', requireRole('moderator'), idParam, async (c) => {
    const { id } = c.req.valid('param');
    return c.json({ server: found(await getServerById(c.get('deps').db, id), 'server', id) });
  })
  .patch(
    '/:id/visibility',
    requireRole('moderator'),
    idParam,
    zValidator('json', visibilitySchema, validationHook),
    async (c) => {
      const { id } = c.req.valid('param');
      const { is_active, reasons, requirement, note } = c.req.valid('json');
      const deps = c.get('deps');
      if (!is_active) {
        // Hiding a live listing (#32): reasons required, the owner mailed with an appeal link, audited, one batch.
        const current = found(await getServerById(deps.db, id), 'server', id);
        if (!current.is_active) return c.json({ server: current, owner_mailed: false });
        const hidden = await hideWithReasons(deps, c.get('operator'), current, { reasons, requirement, note });
        // Whether the listing's contact was mailed: a listing added in the console has none on record.
        return c.json({
          server: found(await getServerById(deps.db, id), 'server', id),
          owner_mailed: Boolean(hidden?.contact_email),
        });
      }
      const current = found(await getServerById(deps.db, id), 'server', id);
      const change = prepareRebuild(c, `showed ${current.slug}`, [current.slug]);
      const server = found(
        await setServerActive(deps.db, id, is_active, auditOf(c, 'show', 'server', id, { slug: current.slug }, change)),
        'server',
        id,
      );
      await change.requested();
      return c.json({ server });
    },
  )
  .post('/', requireRole('admin'), zValidator('json', serverSchema, validationHook), async (c) => {
    const input = c.req.valid('json');
    // The slug is chosen in createServer: the change is prepared with the audit row that names it.
    let change: PendingPublish | undefined;
    const server = await createServer(c.get('deps').db, input, (slug) => {
      change = prepareRebuild(c, `created ${slug}`, [slug]);
      return auditOf(c, 'create', 'server', INSERTED_ID, { name: input.name, slug }, change);
    });
    await change?.requested();
    return c.json({ server }, 201);
  })
  .put('/:id', requireRole('admin'), idParam, zValidator('json', serverSchema, validationHook), async (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    const db = c.get('deps').db;
    const before = found(await getServerById(db, id), 'server', id);
    // Hiding goes through PATCH /:id/visibility, which asks for the reasons the owner is mailed (#32).
    if (before.is_active && input.is_active === false)
      throw new ApiError(400, 'validation_failed', HIDE_NEEDS_REASONS, [
        { path: 'is_active', message: HIDE_NEEDS_REASONS },
      ]);
    // A name change without an explicit slug re-derives the slug from the new name.
    const slug = input.slug ?? (input.name === before.name ? before.slug : undefined);
    // What the edit changes, read before it is written: its audit row goes in the update's batch.
    const changed = Object.keys(input).filter(
      (k) => JSON.stringify(before[k as keyof typeof before]) !== JSON.stringify(input[k as keyof typeof input]),
    );
    // A Sponsored term's slot is its category's: not moved while one runs or is booked (or may be paid).
    const at = new Date(c.get('deps').now?.() ?? Date.now()).toISOString();
    const moving = input.category !== before.category;
    const refuseMove = async () => {
      const why = categoryChangeRefusal(await sponsoredSlotsElsewhere(db, id, input.category, at), input.category);
      return why ? slotHeld(why) : null;
    };
    if (moving) {
      const refusal = await refuseMove();
      if (refusal) throw refusal;
    }
    let change: PendingPublish | undefined;
    const updated = await updateServer(
      db,
      id,
      { ...input, slug },
      (next) => {
        const after = next ?? before.slug;
        change = prepareRebuild(c, `edited ${after}`, [after, before.slug]);
        return auditOf(c, 'update', 'server', id, { changed, slug: after, previous_slug: before.slug }, change);
      },
      // Checked again in the UPDATE itself: a Sponsored checkout paid meanwhile still keeps the category.
      moving ? noSlotsElsewhere(id, input.category, at) : undefined,
    ).catch(slugTaken);
    if (!updated && moving && (await getServerById(db, id))) throw (await refuseMove()) ?? slotHeld(SLOT_RACED);
    const server = found(updated, 'server', id);
    await change?.requested();
    return c.json({ server });
  })
  .patch(
    '/:id/placement',
    requireRole('admin'),
    idParam,
    zValidator('json', placementSchema, validationHook),
    async (c) => {
      const { id } = c.req.valid('param');
      const { is_premium, is_sponsored, sort_order } = c.req.valid('json');
      const db = c.get('deps').db;
      const listing = found(await getServerById(db, id), 'server', id);
      if (!listing.affiliate_link) {
        const refused = Object.entries({ is_premium, is_sponsored }).filter(([, on]) => on === true);
        if (refused.length) {
          const issues = refused.map(([path]) => ({ path, message: PAID_NEEDS_LINK }));
          throw new ApiError(400, 'validation_failed', PAID_NEEDS_LINK, issues);
        }
      }
      const patch = {
        ...(is_premium !== undefined ? { is_premium } : {}),
        ...(is_sponsored !== undefined ? { is_sponsored } : {}),
        ...(sort_order !== undefined ? { sort_order } : {}),
      };
      const change = prepareRebuild(c, `placement of ${listing.slug}`, [listing.slug]);
      const server = await updateServer(db, id, patch, () => auditOf(c, 'placement', 'server', id, patch, change));
      await change.requested();
      return c.json({ server });
    },
  )
  .delete('/:id', requireRole('admin'), idParam, async (c) => {
    const { id } = c.req.valid('param');
    const db = c.get('deps').db;
    const server = found(await getServerById(db, id), 'server', id);
    const op = c.get('operator');
    const change = prepareRebuild(c, `deleted ${server.slug}`, [server.slug]);
    // Not while one of its orders may still hold a payer's money (its orders outlive it, set null).
    const removal = await deleteServer(db, id, {
      author: { operatorId: op.id, name: op.email },
      action: 'delete',
      details: { name: server.name, slug: server.slug },
      publish: change.statements,
    });
    if (removal === 'held') {
      const refusal = removalRefusal(await ordersHoldingListing(db, id), 'operator');
      throw new ApiError(409, 'placement_open', refusal ?? REMOVAL_RACED);
    }
    if (removal === 'missing') throw notFound('server', id);
    await change.requested();
    return c.json({ ok: true });
  })
  .get(
    '/:id/analytics',
    requireRole('admin'),
    idParam,
    zValidator('query', analyticsQuerySchema, validationHook),
    async (c) => {
      const { id } = c.req.valid('param');
      const { days } = c.req.valid('query');
      const db = c.get('deps').db;
      found(await getServerById(db, id), 'server', id);
      return c.json({ days, rows: await listServerAnalytics(db, id, days) });
    },
  );
