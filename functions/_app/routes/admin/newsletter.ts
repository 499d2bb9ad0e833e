import { Hono } from 'hono';
import {
  getNewsletterStats,
  listSubscribers,
  type Subscriber,
  updateSubscriber,
} from '../../../../db/queries/newsletter';
import { subscriberPatchSchema, subscriberQuerySchema } from '../../../../src/lib/schemas/admin';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { audit, idParam, notFound, parseBody, parseQuery } from './shared';

/**
 * One CSV field: quoted when it holds a comma, quote or newline (RFC 4180), and
 * prefixed with ' when it starts like a formula, so a spreadsheet never runs it.
 */
export function csvField(value: unknown): string {
  let s = value == null ? '' : Array.isArray(value) ? value.join('; ') : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const CSV_COLUMNS = [
  'id',
  'email',
  'status',
  'premium_subscriber',
  'source',
  'interests',
  'confirmed_at',
  'unsubscribed_at',
  'created_at',
] as const satisfies readonly (keyof Subscriber)[];

/** Subscribers: search, status, premium flag, stats and CSV export; admins. */
export const newsletterRoutes = new Hono<AdminEnv>()
  .use(requireRole('admin'))
  .get('/', async (c) => {
    const q = parseQuery(c, subscriberQuerySchema);
    const { subscribers, total } = await listSubscribers(c.get('deps').db, {
      search: q.search,
      status: q.status,
      page: q.page,
      perPage: q.per_page,
    });
    return c.json({ subscribers, total, page: q.page, perPage: q.per_page });
  })
  .get('/stats', async (c) => c.json(await getNewsletterStats(c.get('deps').db)))
  .get('/export.csv', async (c) => {
    const db = c.get('deps').db;
    const lines: string[] = [CSV_COLUMNS.join(',')];
    for (let page = 1; ; page++) {
      const { subscribers } = await listSubscribers(db, { page, perPage: 1000 });
      for (const s of subscribers) lines.push(CSV_COLUMNS.map((col) => csvField(s[col])).join(','));
      if (subscribers.length < 1000) break;
    }
    await audit(c, 'export', 'newsletter', null, { rows: lines.length - 1 });
    const date = new Date().toISOString().slice(0, 10);
    // The BOM makes Excel read the file as UTF-8.
    return c.body(`\uFEFF${lines.join('\r\n')}\r\n`, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="subscribers-${date}.csv"`,
    });
  })
  .patch('/:id', async (c) => {
    const id = idParam(c);
    const patch = await parseBody(c, subscriberPatchSchema);
    const now = new Date().toISOString();
    const subscriber = await updateSubscriber(c.get('deps').db, id, {
      ...(patch.premium_subscriber !== undefined ? { premium_subscriber: patch.premium_subscriber } : {}),
      ...(patch.status === 'unsubscribed' ? { status: 'unsubscribed', unsubscribed_at: now } : {}),
      ...(patch.status === 'active' ? { status: 'active', unsubscribed_at: null, confirmed_at: now } : {}),
    });
    if (!subscriber) throw notFound('subscriber', id);
    await audit(c, 'update', 'subscriber', id, { ...patch, email: subscriber.email });
    return c.json({ subscriber });
  });
