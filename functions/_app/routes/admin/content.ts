import { zValidator } from '@hono/zod-validator';
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
import { validationHook } from '../../lib/validate';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { audit, conflictOnDuplicate, found, idParam, notFound, requestRebuild } from './shared';

const duplicateKey = conflictOnDuplicate('duplicate_key', 'This page, section and key already exist');

/** site_content CRUD and toggle, by page and section: admins. */
export const contentRoutes = new Hono<AdminEnv>()
  .use(requireRole('admin'))
  .get('/', async (c) => c.json({ items: await listAllContent(c.get('deps').db) }))
  .post('/', zValidator('json', contentSchema, validationHook), async (c) => {
    const item = await createContent(c.get('deps').db, c.req.valid('json')).catch(duplicateKey);
    await audit(c, 'create', 'content', item.id, { page: item.page, section: item.section, key: item.content_key });
    await requestRebuild(c, `content ${item.page}/${item.section}`);
    return c.json({ item }, 201);
  })
  .put('/:id', idParam, zValidator('json', contentSchema, validationHook), async (c) => {
    const { id } = c.req.valid('param');
    const db = c.get('deps').db;
    const before = found(await getContentById(db, id), 'content', id);
    const item = found(await updateContent(db, id, c.req.valid('json')).catch(duplicateKey), 'content', id);
    const { page, section } = item;
    await audit(c, 'update', 'content', id, {
      page,
      section,
      key: item.content_key,
      previous_value: before.content_value,
    });
    await requestRebuild(c, `content ${page}/${section}`);
    return c.json({ item });
  })
  .post('/:id/toggle', idParam, async (c) => {
    const { id } = c.req.valid('param');
    const item = found(await toggleContent(c.get('deps').db, id), 'content', id);
    await audit(c, 'toggle', 'content', id, { is_active: item.is_active });
    await requestRebuild(c, `content ${item.page}/${item.section}`);
    return c.json({ item });
  })
  .delete('/:id', idParam, async (c) => {
    const { id } = c.req.valid('param');
    const db = c.get('deps').db;
    const { page, section, content_key } = found(await getContentById(db, id), 'content', id);
    if (!(await deleteContent(db, id))) throw notFound('content', id);
    await audit(c, 'delete', 'content', id, { page, section, key: content_key });
    await requestRebuild(c, `content ${page}/${section}`);
    return c.json({ ok: true });
  });
