import { Hono } from 'hono';
import {
  createContent,
  deleteContent,
  getContentById,
  listAllContent,
  toggleContent,
  updateContent,
} from '../../../../db/queries/content';
import { contentSchema } from '../../../../src/lib/schemas/admin';
import { ApiError } from '../../lib/errors';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { audit, idParam, notFound, parseBody, requestRebuild } from './shared';

const duplicate = (err: unknown): never => {
  if (/UNIQUE constraint failed/i.test(`${String(err)} ${String((err as { cause?: unknown }).cause)}`)) {
    throw new ApiError(409, 'duplicate_key', 'This page, section and key already exist');
  }
  throw err;
};

/** site_content CRUD and toggle, by page and section: admins. */
export const contentRoutes = new Hono<AdminEnv>()
  .use(requireRole('admin'))
  .get('/', async (c) => c.json({ items: await listAllContent(c.get('deps').db) }))
  .post('/', async (c) => {
    const input = await parseBody(c, contentSchema);
    const item = await createContent(c.get('deps').db, input).catch(duplicate);
    await audit(c, 'create', 'content', item.id, { page: item.page, section: item.section, key: item.content_key });
    requestRebuild(c, `content ${item.page}/${item.section}`);
    return c.json({ item }, 201);
  })
  .put('/:id', async (c) => {
    const id = idParam(c);
    const input = await parseBody(c, contentSchema);
    const db = c.get('deps').db;
    const before = await getContentById(db, id);
    if (!before) throw notFound('content', id);
    const item = (await updateContent(db, id, input).catch(duplicate))!;
    await audit(c, 'update', 'content', id, {
      page: item.page,
      section: item.section,
      key: item.content_key,
      previous_value: before.content_value,
    });
    requestRebuild(c, `content ${item.page}/${item.section}`);
    return c.json({ item });
  })
  .post('/:id/toggle', async (c) => {
    const id = idParam(c);
    const item = await toggleContent(c.get('deps').db, id);
    if (!item) throw notFound('content', id);
    await audit(c, 'toggle', 'content', id, { is_active: item.is_active });
    requestRebuild(c, `content ${item.page}/${item.section}`);
    return c.json({ item });
  })
  .delete('/:id', async (c) => {
    const id = idParam(c);
    const db = c.get('deps').db;
    const before = await getContentById(db, id);
    if (!before || !(await deleteContent(db, id))) throw notFound('content', id);
    await audit(c, 'delete', 'content', id, { page: before.page, section: before.section, key: before.content_key });
    requestRebuild(c, `content ${before.page}/${before.section}`);
    return c.json({ ok: true });
  });
