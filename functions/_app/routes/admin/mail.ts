import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { countMailsByStatus, getMailById, listMails } from '../../../../db/queries/mail';
import { mailQuerySchema } from '../../../../src/lib/schemas/mail';
import { mailFor, mailFrom } from '../../clients/mail';
import { mailPreview } from '../../lib/mail-preview';
import { validationHook } from '../../lib/validate';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { found, idParam } from './shared';

/**
 * The Outbox (#16): every mail the site wrote, as it is (or was) sent: its headers, text and HTML,
 * its status, attempts and last error; and which transport sends them (none: they wait here). Admins.
 */
export const mailRoutes = new Hono<AdminEnv>()
  .use(requireRole('admin'))
  .get('/', zValidator('query', mailQuerySchema, validationHook), async (c) => {
    const { page, per_page: perPage, status, kind } = c.req.valid('query');
    const db = c.get('deps').db;
    // The list leaves the bodies out: the screen opens one mail at a time.
    const [{ mails, total }, counts] = await Promise.all([
      listMails(db, { status, kind, page, perPage }),
      countMailsByStatus(db),
    ]);
    const rows = mails.map(({ text_body: _t, html_body: _h, ...m }) => m);
    const deps = c.get('deps');
    return c.json({
      mails: rows,
      total,
      page,
      perPage,
      counts,
      transport: mailFor(deps)?.transport ?? null,
      from: mailFrom(deps.env),
    });
  })
  .get('/:id', idParam, async (c) => {
    const { id } = c.req.valid('param');
    return c.json({ mail: found(await getMailById(c.get('deps').db, id), 'mail', id) });
  })
  // Its HTML part as a document of its own, for the Outbox's preview frame: with its own policy,
  // which lets the mail's inline styles apply (the console page's policy would refuse them).
  .get('/:id/preview', idParam, async (c) => {
    const { id } = c.req.valid('param');
    return mailPreview(c, found(await getMailById(c.get('deps').db, id), 'mail', id).html_body);
  });
