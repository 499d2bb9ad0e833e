import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { INSERTED_ID } from '../../../../db/queries/audit';
import {
  createContent,
  deleteContent,
  getContentById,
  isActiveNow,
  listAllContent,
  toggleContent,
  updateContent,
} from '../../../../db/queries/content';
import { contentSchema } from '../../../../src/lib/schemas/admin';
import { validationHook } from '../../lib/validate';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { auditOf, conflictOnDuplicate, found, idParam, notFound, prepareRebuild } from './shared';

const duplicateKey = conflictOnDuplicate('duplicate_key', 'This page, section and key already exist');

/** site_content CRUD and toggle, by page and section: admins. */
export const contentRoutes = new Hono<AdminEnv>()
  .use(requireRole('admin'))
  .get('/', async (c) => c.json({ items: await listAllContent(c.get('deps').db) }))
  .post('/', zValidator('json', contentSchema, validationHook), async (c) => {
    const input = c.req.valid('json');
    const change = prepareRebuild(c, `content ${input.page}/${input.section}`);
    const item = await createContent(
      c.get('deps').db,
      input,
      auditOf(
        c,
        'create',
        'content',
        INSERTED_ID,
        { page: input.page, section: input.section, key: input.content_key },
        change,
      ),
    ).catch(duplicateKey);
    await change.requested();
    return c.json({ item }, 201);
  })
  .put('/:id', idParam, zValidator('json', contentSchema, validationHook), async (c) => {
    const { id } = c.req.valid('param');
    const db = c.get('deps').db;
    const before = found(await getContentById(db, id), 'content', id);
    const input = c.req.valid('json');
    const { page, section } = input;
    const change = prepareRebuild(c, `content ${page}/${section}`);
    const audited = auditOf(
      c,
      'update',
      'content',
      id,
      { page, section, key: input.content_key, previous_value: before.content_value },
      change,
    );
    const item = found(await updateContent(db, id, input, audited).catch(duplicateKey), 'content', id);
    await change.requested();
    return c.json({ item });
  })
  .post('/:id/toggle', idParam, async (c) => {
    const { id } = c.req.valid('param');
    const db = c.get('deps').db;
    // Its page and section, read first: they name the change recorded in the toggle's batch.
    const { page, section } = found(await getContentById(db, id), 'content', id);
    const change = prepareRebuild(c, `content ${page}/${section}`);
    const audited = auditOf(c, 'toggle', 'content', id, { is_active: isActiveNow(id) }, change);
    const item = found(await toggleContent(db, id, audited), 'content', id);
    await change.requested();
    return c.json({ item });
  })
  .delete('/:id', idParam, async (c) => {
    const { id } = c.req.valid('param');
    const db = c.get('deps').db;
    const { page, section, content_key } = found(await getContentById(db, id), 'content', id);
    const change = prepareRebuild(c, `content ${page}/${section}`);
    const audited = auditOf(c, 'delete', 'content', id, { page, section, key: content_key }, change);
    if (!(await deleteContent(db, id, audited))) throw notFound('content', id);
    await change.requested();
    return c.json({ ok: true });
  });
