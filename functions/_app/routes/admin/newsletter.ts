import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  countConfirmedAfter,
  countIssueRecipients,
  getIssueByWeek,
  getNewsletterStats,
  hasIssueRecipients,
  listSubscribers,
  type Subscriber,
  signUpEmail,
  subscriberEmailNow,
  unsubscribeSubscriber,
  updateSubscriber,
} from '../../../../db/queries/newsletter';
import { subscriberPatchSchema, subscriberQuerySchema } from '../../../../src/lib/schemas/admin';
import { lastWeekOwed, previewIssue, previewIssueMail, run as sendNewsletter, toCompose } from '../../jobs/newsletter';
import { WORKER_NEWSLETTER_PAGES_PER_REQUEST } from '../../jobs/schedule';
import { ApiError } from '../../lib/errors';
import { mailPreview } from '../../lib/mail-preview';
import { validationHook } from '../../lib/validate';
import { newsletterConfirmMail } from '../../mail/newsletter-confirm';
import { mailSite, newsletterLinks } from '../../mail/site';
import { isoWeek } from '../../mail/week';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { audit, auditOf, found, idParam } from './shared';

/**
 * One CSV field: quoted when it holds a comma, quote or newline (RFC 4180), and
 * prefixed with ' when it starts like a formula, so a spreadsheet never runs it.
 */
export function csvField(value: unknown): string {
  let s = value == null ? '' : Array.isArray(value) ? value.join('; ') : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The `:week` of an issue's preview: an ISO week as isoWeek writes it (2026-W48). */
const issueWeekParam = z.object({ week: z.string().regex(/^\d{4}-W\d{2}$/, 'Must be an ISO week such as 2026-W48') });

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

/** Subscribers: search, status, premium flag, stats and CSV export; the weekly issue's preview and send; admins. */
export const newsletterRoutes = new Hono<AdminEnv>()
  .use(requireRole('admin'))
  .get('/', zValidator('query', subscriberQuerySchema, validationHook), async (c) => {
    const { page, per_page: perPage, search, status } = c.req.valid('query');
    const { subscribers, total } = await listSubscribers(c.get('deps').db, { search, status, page, perPage });
    return c.json({ subscribers, total, page, perPage });
  })
  .get('/stats', async (c) => c.json(await getNewsletterStats(c.get('deps').db)))
  // This week's issue (#16): its preview and recipient count, then the send (once per ISO week).
  .get('/issue', async (c) => {
    const deps = c.get('deps');
    return c.json(await previewIssue(deps, deps.now?.() ?? Date.now()));
  })
  // The HTML of the issue the preview shows for `week` (this week's, or last week's while copies of
  // it are owed) as a document of its own, for the preview frame: its own policy lets the mail's
  // inline styles apply. Any other week is a 404.
  .get('/issue/:week/preview', zValidator('param', issueWeekParam, validationHook), async (c) => {
    const { week } = c.req.valid('param');
    const deps = c.get('deps');
    const mail = await previewIssueMail(deps, deps.now?.() ?? Date.now(), week);
    if (!mail) {
      throw new ApiError(
        404,
        'not_found',
        `No issue of ${week} to preview: only this week's, or last week's while copies of it are owed`,
      );
    }
    return mailPreview(c, mail.html);
  })
  // On the Worker a request writes WORKER_NEWSLETTER_PAGES_PER_REQUEST pages of copies (its 50
  // subrequests) and answers 202 with how far it got: the newsletter's next pass (every 15
  // minutes, any day, into the next week) or another press writes the rest. Under npm start it
  // writes them all. Until this week's issue is composed, a press first finishes last week's if
  // copies of it are left (sent late on Sunday), writing only that, and answers for that issue
  // (`week`, beside `thisWeek`); only a press with nothing owed may compose this week's.
  .post('/issue/send', async (c) => {
    const deps = c.get('deps');
    const now = deps.now?.() ?? Date.now();
    const thisWeek = isoWeek(now);
    const stored = await getIssueByWeek(deps.db, thisWeek);
    const owed = stored ? null : await lastWeekOwed(deps, now);
    // The week's issue still to compose (toCompose: none yet, or one composed for nobody) with
    // nobody confirmed: refused, and nothing composed, so a subscriber who confirms later in the
    // week gets it. Last week's copies still owed are written first, whatever this week's count;
    // an issue written for someone goes on (or writes nothing) whoever has confirmed since.
    if (!owed && toCompose(stored) && !(await hasIssueRecipients(deps.db, new Date(now).toISOString()))) {
      throw new ApiError(
        409,
        'no_recipients',
        "No confirmed subscribers: there is nobody to send this week's issue to yet",
      );
    }
    const { week, composed, enqueued, recipients, done, issue } = await sendNewsletter(deps, now, {
      ...(deps.runtime === 'worker' ? { maxPages: WORKER_NEWSLETTER_PAGES_PER_REQUEST } : {}),
    });
    // The subscribers of the issue this press wrote (last week's, when it finished that one), and
    // those confirmed after this week's was composed, who get next week's.
    const subscribers = issue ? await countIssueRecipients(deps.db, issue.created_at) : 0;
    const later = issue && week === thisWeek ? await countConfirmedAfter(deps.db, issue.created_at) : 0;
    await audit(c, 'send', 'newsletter', null, { week, enqueued, recipients, done });
    return c.json({ week, thisWeek, composed, enqueued, recipients, subscribers, later, done }, done ? 200 : 202);
  })
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
  // A confirmation mail (the signup's own: at most one a minute) to a pending subscriber, or to an
  // unsubscribed one, who is pending again until they follow it: an operator never confirms an
  // address for its owner.
  .post('/:id/resend', idParam, async (c) => {
    const { id } = c.req.valid('param');
    const deps = c.get('deps');
    const subscriber = found(await updateSubscriber(deps.db, id, {}), 'subscriber', id);
    if (subscriber.status === 'active') {
      throw new ApiError(409, 'not_pending', `${subscriber.email} is active: it has confirmed already`);
    }
    const links = await newsletterLinks(deps.env, subscriber.email);
    const mail = newsletterConfirmMail(mailSite(deps.env), links);
    const result = await signUpEmail(
      deps.db,
      subscriber.email,
      { mail, headers: links.headers },
      deps.now?.() ?? Date.now(),
    );
    if (!result.ok) throw new ApiError(409, 'not_pending', `${subscriber.email} is already confirmed`);
    await audit(c, 'resend_confirmation', 'subscriber', id, { email: subscriber.email });
    return c.json({ subscriber: result.subscriber, confirmation: 'sent' as const });
  })
  .patch('/:id', idParam, zValidator('json', subscriberPatchSchema, validationHook), async (c) => {
    const { id } = c.req.valid('param');
    const patch = c.req.valid('json');
    const db = c.get('deps').db;
    const premium = patch.premium_subscriber !== undefined ? { premium_subscriber: patch.premium_subscriber } : {};
    // Unsubscribing here is the subscriber's own one-click: the newsletter mails still waiting for
    // the address (this week's issue) are given up with it.
    const audited = auditOf(c, 'update', 'subscriber', id, { ...patch, email: subscriberEmailNow(id) });
    const update =
      patch.status === 'unsubscribed'
        ? unsubscribeSubscriber(db, id, premium, audited)
        : updateSubscriber(db, id, premium, audited);
    const subscriber = found(await update, 'subscriber', id);
    return c.json({ subscriber });
  });
