import { Hono } from 'hono';
import { listServerAnalytics } from '../../../../db/queries/analytics';
import {
  createServer,
  deleteServer,
  getServerById,
  listServersForConsole,
  setServerActive,
  updateServer,
} from '../../../../db/queries/servers';
import {
  adminServerQuerySchema,
  analyticsQuerySchema,
  placementSchema,
  visibilitySchema,
} from '../../../../src/lib/schemas/admin';
import { PAID_NEEDS_LINK, serverSchema } from '../../../../src/lib/schemas/server';
import { ApiError } from '../../lib/errors';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { audit, idParam, notFound, parseBody, parseQuery, requestRebuild } from './shared';

const isUniqueViolation = (err: unknown) =>
  /UNIQUE constraint failed/i.test(`${String(err)} ${String((err as { cause?: unknown }).cause)}`);

/** Listings: moderators may search and show/hide; everything else is for admins. */
export const serverRoutes = new Hono<AdminEnv>()
  .get('/', requireRole('moderator'), async (c) => {
    const q = parseQuery(c, adminServerQuerySchema);
    const { servers, total } = await listServersForConsole(c.get('deps').db, {
      search: q.search,
      page: q.page,
      perPage: q.per_page,
    });
    return c.json({ servers, total, page: q.page, perPage: q.per_page });
  })
  .get('/:id', requireRole('moderator'), async (c) => {
    const id = idParam(c);
    const server = await getServerById(c.get('deps').db, id);
    if (!server) throw notFound('server', id);
    return c.json({ server });
  })
  .patch('/:id/visibility', requireRole('moderator'), async (c) => {
    const id = idParam(c);
    const { is_active } = await parseBody(c, visibilitySchema);
    const server = await setServerActive(c.get('deps').db, id, is_active);
    if (!server) throw notFound('server', id);
    await audit(c, is_active ? 'show' : 'hide', 'server', id, { slug: server.slug });
    requestRebuild(c, `${is_active ? 'showed' : 'hid'} ${server.slug}`);
    return c.json({ server });
  })
  .post('/', requireRole('admin'), async (c) => {
    const input = await parseBody(c, serverSchema);
    const server = await createServer(c.get('deps').db, input);
    await audit(c, 'create', 'server', server.id, { name: server.name, slug: server.slug });
    requestRebuild(c, `created ${server.slug}`);
    return c.json({ server }, 201);
  })
  .put('/:id', requireRole('admin'), async (c) => {
    const id = idParam(c);
    const input = await parseBody(c, serverSchema);
    const db = c.get('deps').db;
    const before = await getServerById(db, id);
    if (!before) throw notFound('server', id);
    // A name change without an explicit slug re-derives the slug (SPEC section 5).
    const slug = input.slug ?? (input.name === before.name ? before.slug : undefined);
    let server: Awaited<ReturnType<typeof updateServer>>;
    try {
      server = await updateServer(db, id, { ...input, slug });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ApiError(409, 'slug_taken', 'Another server has this slug');
      throw err;
    }
    if (!server) throw notFound('server', id);
    const changed = Object.keys(input).filter(
      (k) => JSON.stringify(before[k as keyof typeof before]) !== JSON.stringify(server[k as keyof typeof server]),
    );
    await audit(c, 'update', 'server', id, { changed, slug: server.slug, previous_slug: before.slug });
    requestRebuild(c, `edited ${server.slug}`);
    return c.json({ server });
  })
  .patch('/:id/placement', requireRole('admin'), async (c) => {
    const id = idParam(c);
    const patch = await parseBody(c, placementSchema);
    const db = c.get('deps').db;
    const current = await getServerById(db, id);
    if (!current) throw notFound('server', id);
    if (!current.affiliate_link) {
      const refused = (['is_premium', 'is_sponsored'] as const).filter((k) => patch[k] === true);
      if (refused.length) {
        throw new ApiError(
          400,
          'validation_failed',
          PAID_NEEDS_LINK,
          refused.map((path) => ({ path, message: PAID_NEEDS_LINK })),
        );
      }
    }
    const server = await updateServer(db, id, {
      ...(patch.is_premium !== undefined ? { is_premium: patch.is_premium } : {}),
      ...(patch.is_sponsored !== undefined ? { is_sponsored: patch.is_sponsored } : {}),
      ...(patch.sort_order !== undefined ? { sort_order: patch.sort_order } : {}),
    });
    await audit(c, 'placement', 'server', id, patch);
    requestRebuild(c, `placement of ${server?.slug}`);
    return c.json({ server });
  })
  .delete('/:id', requireRole('admin'), async (c) => {
    const id = idParam(c);
    const db = c.get('deps').db;
    const server = await getServerById(db, id);
    if (!server || !(await deleteServer(db, id))) throw notFound('server', id);
    await audit(c, 'delete', 'server', id, { name: server.name, slug: server.slug });
    requestRebuild(c, `deleted ${server.slug}`);
    return c.json({ ok: true });
  })
  .get('/:id/analytics', requireRole('admin'), async (c) => {
    const id = idParam(c);
    const { days } = parseQuery(c, analyticsQuerySchema);
    const db = c.get('deps').db;
    if (!(await getServerById(db, id))) throw notFound('server', id);
    return c.json({ days, rows: await listServerAnalytics(db, id, days) });
  });
