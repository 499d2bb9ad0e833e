import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createContactMessage } from '../../db/queries/contact';
import { insertInteractions } from '../../db/queries/interactions';
import { createIssue, getIssueByWeek, signUpEmail, subscribeEmail } from '../../db/queries/newsletter';
import { createReport } from '../../db/queries/reports';
import { createServer, getServerById } from '../../db/queries/servers';
import { insertSubmission } from '../../db/queries/submissions';
import {
  auditLog,
  discordServers,
  mailOutbox,
  newsletterIssues,
  newsletterSubscribers,
  orders,
  serverReports,
  serverSubmissions,
  siteContent,
  userInteractions,
} from '../../db/schema';
import { run as sendNewsletter } from '../../functions/_app/jobs/newsletter';
import { JOBS } from '../../functions/_app/jobs/schedule';
import { consoleListing, createAdminHarness } from '../helpers/admin';

let h: Awaited<ReturnType<typeof createAdminHarness>>;
afterEach(() => h?.cleanup());

const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;

const submission = (name = 'Chess Masters Club') => ({
  server_name: name,
  server_description: 'A friendly community for chess players of every level.',
  category: 'Gaming',
  invite_link: 'https://discord.gg/chess123',
  server_image: 'https://cdn.example.com/chess.png',
  contact_email: 'owner@example.com',
  features: 'Daily puzzles\nWeekly tournaments',
  member_count: 1200,
  active_users: 300,
  submitter_name: 'Ana',
  is_owner: true,
});

const server = (name = 'Alpha Traders') => consoleListing({ name });

async function auditActions(entity: string) {
  const rows = await h.db.select().from(auditLog).where(eq(auditLog.entity, entity));
  return rows.map((r) => `${r.action}:${r.entity_id}:${r.operator_email}`);
}

describe('submissions screen', () => {
  it('approving a submission creates the listing, marks it approved, audits it and requests a rebuild', async () => {
    h = await createAdminHarness();
    const s = await h.signIn('moderator');
    const sub = await insertSubmission(h.db, submission());
    const res = await h.call(s, 'POST', `/api/admin/submissions/${sub.id}/approve`, { admin_notes: 'Looks good' });
    expect(res.status).toBe(200);
    const body = await json<{ server: { id: number; slug: string; pros: string[]; is_active: boolean } }>(res);
    expect(body.server).toMatchObject({ slug: 'chess-masters-club', pros: ['Daily puzzles', 'Weekly tournaments'] });
    expect(body.server.is_active).toBe(true);
    const [row] = await h.db.select().from(serverSubmissions).where(eq(serverSubmissions.id, sub.id));
    expect(row).toMatchObject({ status: 'approved', admin_notes: 'Looks good', server_id: body.server.id });
    expect(await auditActions('submission')).toEqual([
      expect.stringMatching(new RegExp(`^approve:${sub.id}:moderator-`)),
    ]);
    expect(h.rebuild.reasons).toEqual(['approved chess-masters-club']);
    // A second approval is refused and creates nothing.
    expect((await h.call(s, 'POST', `/api/admin/submissions/${sub.id}/approve`, {})).status).toBe(409);
    expect(await h.db.select().from(discordServers)).toHaveLength(1);
  });

  it("refuses a body that is not JSON with 400 invalid_json, the public routes' envelope", async () => {
    h = await createAdminHarness();
    const admin = await h.signIn();
    const res = await h.app.request('/api/admin/content/1', {
      method: 'PUT',
      headers: {
        origin: 'http://localhost:4321',
        cookie: admin.cookie,
        'x-csrf-token': admin.csrf,
        'content-type': 'application/json',
      },
      body: '{"value": ',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
  });

  it('approves with an empty body too', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    const sub = await insertSubmission(h.db, submission());
    expect((await h.call(s, 'POST', `/api/admin/submissions/${sub.id}/approve`)).status).toBe(200);
  });

  it('lists with a status filter and pagination, counts each status, and shows one in detail', async () => {
    h = await createAdminHarness();
    const s = await h.signIn('moderator');
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await insertSubmission(h.db, submission(`Server number ${i}`))).id);
    await h.call(s, 'PATCH', `/api/admin/submissions/${ids[0]}`, {
      status: 'rejected',
      reasons: ['scam_risk'],
      admin_notes: 'Spam',
    });
    const page = await json<{ submissions: { id: number }[]; total: number }>(
      await h.call(s, 'GET', '/api/admin/submissions?status=pending&per_page=1&page=2'),
    );
    expect(page.total).toBe(2);
    expect(page.submissions).toHaveLength(1);
    const stats = await json<Record<string, number>>(await h.call(s, 'GET', '/api/admin/submissions/stats'));
    expect(stats).toEqual({ total: 3, pending: 2, under_review: 0, approved: 0, rejected: 1 });
    const detail = await json<{ submission: { admin_notes: string; status: string } }>(
      await h.call(s, 'GET', `/api/admin/submissions/${ids[0]}`),
    );
    expect(detail.submission).toMatchObject({ status: 'rejected', admin_notes: 'Spam' });
    expect((await h.call(s, 'GET', '/api/admin/submissions/999')).status).toBe(404);
  });

  it('moves a submission to under_review with notes, audits it, and refuses an unknown status', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    const sub = await insertSubmission(h.db, submission());
    const res = await h.call(s, 'PATCH', `/api/admin/submissions/${sub.id}`, {
      status: 'under_review',
      admin_notes: 'Checking the invite',
    });
    expect(res.status).toBe(200);
    expect(await auditActions('submission')).toHaveLength(1);
    const bad = await h.call(s, 'PATCH', `/api/admin/submissions/${sub.id}`, { status: 'approved' });
    expect(bad.status).toBe(400);
    expect(h.rebuild.reasons).toEqual([]);
  });

  it('refuses a path id that is not a record id with 400 naming id, and answers 404 for an unknown one', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    for (const id of ['abc', '0', '-1', '1.5', '01', '1234567890123']) {
      const res = await h.call(s, 'GET', `/api/admin/submissions/${id}`);
      expect(res.status, id).toBe(400);
      const body = await json<{ error: { code: string; issues: { path: string }[] } }>(res);
      expect(body.error.code).toBe('validation_failed');
      expect(body.error.issues.map((i) => i.path)).toEqual(['id']);
    }
    const missing = await h.call(s, 'DELETE', '/api/admin/submissions/42');
    expect(missing.status).toBe(404);
    expect(await json<{ error: { message: string } }>(missing)).toEqual({
      error: { code: 'not_found', message: 'No submission 42' },
    });
  });

  it('deletes a submission and audits it', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    const sub = await insertSubmission(h.db, submission());
    expect((await h.call(s, 'DELETE', `/api/admin/submissions/${sub.id}`)).status).toBe(200);
    expect(await h.db.select().from(serverSubmissions)).toHaveLength(0);
    expect(await auditActions('submission')).toEqual([expect.stringMatching(/^delete:/)]);
  });
});

describe('servers screen', () => {
  it('creates a server with a derived slug, edits it, and a rename re-derives the slug', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    const created = await h.call(s, 'POST', '/api/admin/servers', server('The Alpha Traders'));
    expect(created.status).toBe(201);
    const { server: row } = await json<{ server: { id: number; slug: string } }>(created);
    expect(row.slug).toBe('alpha-traders');
    const edited = await h.call(s, 'PUT', `/api/admin/servers/${row.id}`, { ...server('Beta Signals'), members: 900 });
    expect(edited.status).toBe(200);
    const after = await getServerById(h.db, row.id);
    expect(after).toMatchObject({ name: 'Beta Signals', slug: 'beta-signals', members: 900 });
    // An explicit slug wins.
    await h.call(s, 'PUT', `/api/admin/servers/${row.id}`, { ...server('Beta Signals'), slug: 'beta' });
    expect((await getServerById(h.db, row.id))?.slug).toBe('beta');
    expect(await auditActions('server')).toHaveLength(3);
    expect(h.rebuild.reasons).toHaveLength(3);
  });

  it('refuses an invalid server with 400 naming the fields', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    const res = await h.call(s, 'POST', '/api/admin/servers', { name: 'x', category: 'Cooking' });
    expect(res.status).toBe(400);
    const body = await json<{ error: { issues: { path: string }[] } }>(res);
    expect(body.error.issues.map((i) => i.path)).toEqual(expect.arrayContaining(['name', 'category', 'description']));
  });

  it('refuses a category the site does not list (the Education sample one), which the public site would never show', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    const res = await h.call(s, 'POST', '/api/admin/servers', { ...server('Study Hall'), category: 'Education' });
    expect(res.status).toBe(400);
    const body = await json<{ error: { issues: { path: string }[] } }>(res);
    expect(body.error.issues.map((i) => i.path)).toEqual(['category']);
  });

  it('hides and shows a server (moderator), marks premium and sort order (admin), and deletes it', async () => {
    h = await createAdminHarness();
    const mod = await h.signIn('moderator');
    const admin = await h.signIn('admin');
    // Premium and sponsored placement needs a join link (tests/api/join-links.test.ts).
    const row = await createServer(h.db, { ...server(), affiliate_link: 'https://discord.gg/alpha' });
    expect(
      (await h.call(mod, 'PATCH', `/api/admin/servers/${row.id}/visibility`, { is_active: false, reasons: ['other'] }))
        .status,
    ).toBe(200);
    expect((await getServerById(h.db, row.id))?.is_active).toBe(false);
    expect((await h.call(mod, 'PATCH', `/api/admin/servers/${row.id}/placement`, { is_premium: true })).status).toBe(
      403,
    );
    const placed = await h.call(admin, 'PATCH', `/api/admin/servers/${row.id}/placement`, {
      is_premium: true,
      is_sponsored: true,
      sort_order: 7,
    });
    expect(placed.status).toBe(200);
    expect(await getServerById(h.db, row.id)).toMatchObject({ is_premium: true, is_sponsored: true, sort_order: 7 });
    expect((await h.call(admin, 'DELETE', `/api/admin/servers/${row.id}`)).status).toBe(200);
    expect(await getServerById(h.db, row.id)).toBeNull();
    expect((await auditActions('server')).map((a) => a.split(':')[0])).toEqual(['hide', 'placement', 'delete']);
    expect(h.rebuild.reasons).toHaveLength(3);
  });

  it('an edit never hides a live listing (hiding asks for reasons and mails the owner) and, without is_active, leaves a hidden one hidden', async () => {
    h = await createAdminHarness();
    const admin = await h.signIn('admin');
    const row = await createServer(h.db, { ...server(), affiliate_link: 'https://discord.gg/alpha' });
    const refused = await h.call(admin, 'PUT', `/api/admin/servers/${row.id}`, { ...server(), is_active: false });
    expect(refused.status).toBe(400);
    const body = await json<{ error: { code: string; issues: { path: string; message: string }[] } }>(refused);
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.issues.map((i) => i.path)).toEqual(['is_active']);
    expect(body.error.issues[0]?.message).toMatch(/reasons/);
    expect((await getServerById(h.db, row.id))?.is_active).toBe(true);
    expect(await auditActions('server')).toEqual([]);

    // Hidden with reasons, then edited: the edit changes the text and leaves it hidden.
    expect(
      (
        await h.call(admin, 'PATCH', `/api/admin/servers/${row.id}/visibility`, {
          is_active: false,
          reasons: ['other'],
        })
      ).status,
    ).toBe(200);
    const edited = await h.call(admin, 'PUT', `/api/admin/servers/${row.id}`, {
      ...server(),
      description: 'Signals, charts and a weekly call.',
    });
    expect(edited.status).toBe(200);
    expect(await getServerById(h.db, row.id)).toMatchObject({
      is_active: false,
      description: 'Signals, charts and a weekly call.',
    });
  });

  it('searches every server, hidden ones included', async () => {
    h = await createAdminHarness();
    const s = await h.signIn('moderator');
    await createServer(h.db, { ...server('Gamma Crypto Lounge'), is_active: false });
    await createServer(h.db, server('Delta Stocks'));
    const res = await json<{ servers: { name: string }[]; total: number }>(
      await h.call(s, 'GET', '/api/admin/servers?search=gamma'),
    );
    expect(res.servers.map((x) => x.name)).toEqual(['Gamma Crypto Lounge']);
  });

  it('console searches refuse control characters with 400 naming search and take FTS5 syntax as text', async () => {
    h = await createAdminHarness();
    const s = await h.signIn('admin');
    await createServer(h.db, server('The "Quoted" AND Lounge'));
    for (const path of ['/api/admin/servers?search=ab%00cd', '/api/admin/newsletter?search=a%00b']) {
      const res = await h.call(s, 'GET', path);
      expect(res.status, path).toBe(400);
      const body = await json<{ error: { issues: { path: string; message: string }[] } }>(res);
      expect(body.error.issues).toEqual([{ path: 'search', message: 'Search text cannot contain control characters' }]);
    }
    for (const search of ['"quoted" and', '"', '*', '-', 'NEAR(', 'AND']) {
      const res = await h.call(s, 'GET', `/api/admin/servers?search=${encodeURIComponent(search)}`);
      expect(res.status, search).toBe(200);
    }
    const found = await json<{ servers: { name: string }[] }>(
      await h.call(s, 'GET', `/api/admin/servers?search=${encodeURIComponent('"quoted" and')}`),
    );
    expect(found.servers.map((x) => x.name)).toEqual(['The "Quoted" AND Lounge']);
  });

  it('refuses an icon URL on an IP literal, loopback or internal host with 400 naming image_url', async () => {
    h = await createAdminHarness();
    const s = await h.signIn('admin');
    const row = await createServer(h.db, { ...server(), image_url: 'https://cdn.example.com/a.png' });
    for (const image_url of [
      'https://169.254.169.254/latest/meta-data/',
      'https://2852039166/',
      'https://0x7f.1/icon.png',
      'https://[::1]/icon.png',
      'https://localhost/icon.png',
      'https://metadata.google.internal/',
    ]) {
      for (const [method, path] of [
        ['POST', '/api/admin/servers'],
        ['PUT', `/api/admin/servers/${row.id}`],
      ] as const) {
        const res = await h.call(s, method, path, { ...server('Icon Test'), image_url });
        expect(res.status, `${method} ${image_url}`).toBe(400);
        const body = await json<{ error: { issues: { path: string; message: string }[] } }>(res);
        expect(body.error.issues).toEqual([
          { path: 'image_url', message: expect.stringMatching(/^Icon URL must be on a public website/) },
        ]);
      }
    }
    expect((await getServerById(h.db, row.id))?.image_url).toBe('https://cdn.example.com/a.png');
    expect(await auditActions('server')).toHaveLength(0);
  });

  it('reports per-server analytics for the last 30 days by default', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    const row = await createServer(h.db, server());
    await insertInteractions(h.db, [
      { interaction_type: 'view', target_type: 'server', server_id: row.id },
      { interaction_type: 'click', target_type: 'server', server_id: row.id, conversion_value: 1 },
    ]);
    const res = await json<{ days: number; rows: { views: number; clicks: number; worth: number }[] }>(
      await h.call(s, 'GET', `/api/admin/servers/${row.id}/analytics`),
    );
    expect(res.days).toBe(30);
    expect(res.rows).toEqual([expect.objectContaining({ views: 1, clicks: 1, worth: 1 })]);
  });
});

describe('reports screen', () => {
  it('groups open reports by server and resolves, dismisses or hides the server', async () => {
    h = await createAdminHarness();
    const s = await h.signIn('moderator');
    const a = await createServer(h.db, server('Spammy Place'));
    const b = await createServer(h.db, server('Quiet Place'));
    const r1 = await createReport(h.db, { server_id: a.id, reason: 'spam', details: 'bots' });
    await createReport(h.db, { server_id: a.id, reason: 'broken_link', details: null });
    const r3 = await createReport(h.db, { server_id: b.id, reason: 'other', details: null });
    const list = await json<{ groups: { server_id: number; reports: unknown[] }[] }>(
      await h.call(s, 'GET', '/api/admin/reports'),
    );
    expect(list.groups.map((g) => [g.server_id, g.reports.length])).toEqual([
      [a.id, 2],
      [b.id, 1],
    ]);
    expect((await h.call(s, 'PATCH', `/api/admin/reports/${r3.id}`, { action: 'dismiss' })).status).toBe(200);
    expect((await h.call(s, 'PATCH', `/api/admin/reports/${r1.id}`, { action: 'hide_server' })).status).toBe(200);
    expect((await getServerById(h.db, a.id))?.is_active).toBe(false);
    const after = await json<{ groups: unknown[]; total: number }>(await h.call(s, 'GET', '/api/admin/reports'));
    expect(after).toMatchObject({ groups: [], total: 0, open: 0 });
    expect((await auditActions('report')).map((x) => x.split(':')[0])).toEqual(['dismiss', 'hide_server']);
    expect(h.rebuild.reasons).toHaveLength(1);
  });

  it('a closed report cannot be decided again: 409 naming its state, nothing written', async () => {
    h = await createAdminHarness();
    const s = await h.signIn('moderator');
    const a = await createServer(h.db, server('Reported Twice'));
    const r = await createReport(h.db, { server_id: a.id, reason: 'spam', details: null });
    expect((await h.call(s, 'PATCH', `/api/admin/reports/${r.id}`, { action: 'dismiss' })).status).toBe(200);
    const [dismissed] = await h.db.select().from(serverReports).where(eq(serverReports.id, r.id));
    for (const action of ['resolve', 'dismiss', 'hide_server']) {
      const again = await h.call(s, 'PATCH', `/api/admin/reports/${r.id}`, { action });
      expect(again.status).toBe(409);
      expect(await json(again)).toEqual({
        error: { code: 'report_closed', message: 'This report was already dismissed.' },
      });
    }
    // Still dismissed, at the time it was; the listing still live; one audit row, no rebuild.
    expect((await h.db.select().from(serverReports).where(eq(serverReports.id, r.id)))[0]).toEqual(dismissed);
    expect((await getServerById(h.db, a.id))?.is_active).toBe(true);
    expect(await auditActions('report')).toHaveLength(1);
    expect(h.rebuild.reasons).toEqual([]);
    expect((await h.call(s, 'PATCH', '/api/admin/reports/999999', { action: 'resolve' })).status).toBe(404);
  });
});

describe('reports screen pages', () => {
  it('pages the reported listings with the total, each with every open report of its own', async () => {
    h = await createAdminHarness();
    const s = await h.signIn('moderator');
    const places = [];
    for (const name of ['Place One', 'Place Two', 'Place Three']) places.push(await createServer(h.db, server(name)));
    for (const p of places) await createReport(h.db, { server_id: p.id, reason: 'spam', details: null });
    await createReport(h.db, { server_id: places[2]!.id, reason: 'other', details: null });
    type Page = { total: number; open: number; groups: { server_id: number; reports: { server_id: number }[] }[] };
    const first = await json<Page>(await h.call(s, 'GET', '/api/admin/reports?per_page=2'));
    expect(first.total).toBe(3);
    expect(first.open).toBe(4);
    expect(first.groups.map((g) => [g.server_id, g.reports.length])).toEqual([
      [places[2]!.id, 2],
      [places[1]!.id, 1],
    ]);
    const second = await json<Page>(await h.call(s, 'GET', '/api/admin/reports?per_page=2&page=2'));
    expect(second.groups.map((g) => [g.server_id, g.reports.length])).toEqual([[places[0]!.id, 1]]);
    expect((await h.call(s, 'GET', '/api/admin/reports?per_page=0')).status).toBe(400);
  });
});

describe('reviews screen', () => {
  it('pages every review of a view, past the first page, and counts them all', async () => {
    h = await createAdminHarness();
    const s = await h.signIn('moderator');
    const listing = await createServer(h.db, server('Reviewed Place'));
    // 130 hidden reviews, one a minute: more than one page, and more than the 100 the screen once stopped at.
    await h.client.execute(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 130)
       INSERT INTO owner_users (discord_user_id, username) SELECT 'reviewer-' || i, 'reviewer' || i FROM n`,
    );
    await h.client.execute({
      sql: `INSERT INTO reviews (server_id, account_id, rating, body, display_name, member_since, status, hidden_reason, created_at)
            SELECT ?, id, 3, 'Review number ' || id, username, '2026-01-01', 'hidden', 'off-topic',
                   strftime('%Y-%m-%dT%H:%M:%fZ', '2026-11-01', '+' || id || ' minutes')
            FROM owner_users`,
      args: [listing.id],
    });
    type Page = { reviews: { body: string }[]; total: number; page: number; perPage: number };
    const first = await json<Page>(await h.call(s, 'GET', '/api/admin/reviews?view=hidden&per_page=50'));
    expect(first).toMatchObject({ total: 130, page: 1, perPage: 50 });
    expect(first.reviews).toHaveLength(50);
    expect(first.reviews[0]!.body).toBe('Review number 130');
    const last = await json<Page>(await h.call(s, 'GET', '/api/admin/reviews?view=hidden&per_page=50&page=3'));
    expect(last.reviews).toHaveLength(30);
    // The oldest review is reachable: a moderator can show it again.
    expect(last.reviews.at(-1)!.body).toBe('Review number 1');
    expect((await h.call(s, 'GET', '/api/admin/reviews?view=hidden&page=0')).status).toBe(400);
  });
});

describe('content screen', () => {
  it('creates, edits, toggles and deletes site content, each audited and rebuilding the site', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    const created = await h.call(s, 'POST', '/api/admin/content', {
      page: 'home',
      section: 'hero',
      content_key: 'title',
      content_value: 'Find your people',
    });
    expect(created.status).toBe(201);
    const { item } = await json<{ item: { id: number } }>(created);
    const dup = await h.call(s, 'POST', '/api/admin/content', { page: 'home', section: 'hero', content_key: 'title' });
    expect(dup.status).toBe(409);
    await h.call(s, 'PUT', `/api/admin/content/${item.id}`, {
      page: 'home',
      section: 'hero',
      content_key: 'title',
      content_value: 'Find your guild',
    });
    await h.call(s, 'POST', `/api/admin/content/${item.id}/toggle`);
    const [row] = await h.db.select().from(siteContent);
    expect(row).toMatchObject({ content_value: 'Find your guild', is_active: false });
    expect((await h.call(s, 'DELETE', `/api/admin/content/${item.id}`)).status).toBe(200);
    expect(await h.db.select().from(siteContent)).toHaveLength(0);
    expect((await auditActions('content')).map((x) => x.split(':')[0])).toEqual([
      'create',
      'update',
      'toggle',
      'delete',
    ]);
    expect(h.rebuild.reasons).toHaveLength(4);
  });
});

describe('newsletter screen', () => {
  it('searches subscribers, changes status and premium, and shows stats', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    await subscribeEmail(h.db, 'first@example.com');
    const second = await subscribeEmail(h.db, 'second@example.org');
    if (!second.ok) throw new Error('subscribe failed');
    const found = await json<{ subscribers: { email: string }[] }>(
      await h.call(s, 'GET', '/api/admin/newsletter?search=example.org'),
    );
    expect(found.subscribers.map((x) => x.email)).toEqual(['second@example.org']);
    const id = second.subscriber.id;
    expect((await h.call(s, 'PATCH', `/api/admin/newsletter/${id}`, { premium_subscriber: true })).status).toBe(200);
    const unsub = await json<{ subscriber: { status: string; unsubscribed_at: string | null } }>(
      await h.call(s, 'PATCH', `/api/admin/newsletter/${id}`, { status: 'unsubscribed' }),
    );
    expect(unsub.subscriber.status).toBe('unsubscribed');
    expect(unsub.subscriber.unsubscribed_at).not.toBeNull();
    const stats = await json<{ total: number; active: number; unsubscribed: number }>(
      await h.call(s, 'GET', '/api/admin/newsletter/stats'),
    );
    expect(stats).toMatchObject({ total: 2, active: 1, unsubscribed: 1 });
    expect(await auditActions('subscriber')).toHaveLength(2);
  });

  it('POST /api/admin/newsletter/issue/send refuses a send to no confirmed subscriber and composes nothing', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    // Signed up but not confirmed: not a recipient.
    const mail = { mail: { subject: 'Confirm', text: 'Confirm', html: '<p>Confirm</p>' } };
    if (!(await signUpEmail(h.db, 'waiting@example.com', mail, Date.now() - 120_000)).ok) throw new Error('sign-up');
    const refused = await h.call(s, 'POST', '/api/admin/newsletter/issue/send');
    expect(refused.status).toBe(409);
    const body = await json<{ error: { code: string; message: string } }>(refused);
    expect(body.error.code).toBe('no_recipients');
    expect(body.error.message).toMatch(/no confirmed subscribers/i);
    // The week's issue is still to compose, so a subscriber who confirms later gets it.
    expect(await h.db.select().from(newsletterIssues)).toEqual([]);
    expect(await h.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'newsletter_issue'))).toEqual([]);
    expect(await auditActions('newsletter')).toEqual([]);
    if (!(await subscribeEmail(h.db, 'reader@example.com')).ok) throw new Error('subscribe failed');
    const sent = await h.call(s, 'POST', '/api/admin/newsletter/issue/send');
    expect(sent.status).toBe(200);
    expect(await json<{ recipients: number }>(sent)).toMatchObject({ recipients: 1 });
  });

  it("Monday's scheduled pass with nobody confirmed composes nothing, so those who confirm later that week get the issue from Send", async () => {
    let clock = Date.UTC(2026, 10, 23, 9, 0); // Monday 09:00 UTC, 2026-W48: the pass that composes the week's issue
    h = await createAdminHarness({ deps: { now: () => clock } });
    const pass = () => JOBS.newsletter.run({ db: h.db, env: h.env, runtime: 'node', log: () => {} }, clock);
    expect(await pass()).toMatchObject({ week: '2026-W48', composed: false, enqueued: 0, issue: null });
    expect(await getIssueByWeek(h.db, '2026-W48')).toBeNull();
    // Tuesday: two people confirm. The passes do not compose after Monday; the console's Send does.
    clock = Date.UTC(2026, 10, 24, 10, 0);
    for (const email of ['tue1@example.com', 'tue2@example.com'])
      await h.db.insert(newsletterSubscribers).values({ email, confirmed_at: new Date(clock - 60_000).toISOString() });
    expect(await pass()).toMatchObject({ enqueued: 0, issue: null });
    const s = await h.signIn();
    const preview = await json<{ composed: boolean; recipients: number; later: number }>(
      await h.call(s, 'GET', '/api/admin/newsletter/issue'),
    );
    expect(preview).toMatchObject({ composed: false, recipients: 2, later: 0 });
    const sent = await h.call(s, 'POST', '/api/admin/newsletter/issue/send');
    expect(sent.status).toBe(200);
    expect(await json(sent)).toMatchObject({ week: '2026-W48', composed: true, enqueued: 2, recipients: 2, later: 0 });
    const copies = await h.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'newsletter_issue'));
    expect(copies.map((m) => m.to_address).sort()).toEqual(['tue1@example.com', 'tue2@example.com']);
  });

  it('an issue stored with no copy written (composed for nobody) is composed again for those confirmed since: by a press, and by Monday’s passes', async () => {
    let clock = Date.UTC(2026, 10, 23, 9, 0);
    h = await createAdminHarness({ deps: { now: () => clock } });
    // As an earlier version left it: the week's issue composed at 09:00 while nobody was confirmed.
    await createIssue(h.db, {
      week: '2026-W48',
      subject: 'old',
      content: { week: '2026-W48', picks: [], growing: [] },
      createdAt: new Date(clock).toISOString(),
    });
    clock += 10 * 60_000;
    await h.db
      .insert(newsletterSubscribers)
      .values({ email: 'monday@example.com', confirmed_at: new Date(clock - 60_000).toISOString() });
    // Monday 09:15: the next pass composes it again and writes the copy.
    clock = Date.UTC(2026, 10, 23, 9, 15);
    const pass = () => JOBS.newsletter.run({ db: h.db, env: h.env, runtime: 'node', log: () => {} }, clock);
    expect(await pass()).toMatchObject({ week: '2026-W48', composed: true, enqueued: 1, recipients: 1 });
    expect((await getIssueByWeek(h.db, '2026-W48'))?.created_at).toBe(new Date(clock).toISOString());

    // Another week's issue composed for nobody, found on Wednesday by the console.
    clock = Date.UTC(2026, 11, 2, 12, 0); // Wednesday of 2026-W49
    await createIssue(h.db, {
      week: '2026-W49',
      subject: 'old',
      content: { week: '2026-W49', picks: [], growing: [] },
      createdAt: new Date(Date.UTC(2026, 10, 30, 9, 0)).toISOString(),
    });
    await h.db.update(newsletterSubscribers).set({ status: 'unsubscribed' });
    await h.db
      .insert(newsletterSubscribers)
      .values({ email: 'wednesday@example.com', confirmed_at: new Date(clock - 60_000).toISOString() });
    const s = await h.signIn();
    const preview = await json<{ composed: boolean; recipients: number; enqueued: number }>(
      await h.call(s, 'GET', '/api/admin/newsletter/issue'),
    );
    expect(preview).toMatchObject({ composed: false, recipients: 1, enqueued: 0 });
    const sent = await h.call(s, 'POST', '/api/admin/newsletter/issue/send');
    expect(sent.status).toBe(200);
    expect(await json(sent)).toMatchObject({ week: '2026-W49', composed: true, enqueued: 1, recipients: 1 });
    const copies = await h.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'newsletter_issue'));
    expect(copies.map((m) => [m.dedupe_key.split(':')[1], m.to_address]).sort()).toEqual([
      ['2026-W48', 'monday@example.com'],
      ['2026-W49', 'wednesday@example.com'],
    ]);
  });

  it('says that those who confirm after the week’s issue was sent get next week’s, instead of "no recipients"', async () => {
    let clock = Date.UTC(2026, 10, 23, 9, 0);
    h = await createAdminHarness({ deps: { now: () => clock } });
    await h.db
      .insert(newsletterSubscribers)
      .values({ email: 'early@example.com', confirmed_at: new Date(clock - 3_600_000).toISOString() });
    let s = await h.signIn();
    expect((await h.call(s, 'POST', '/api/admin/newsletter/issue/send')).status).toBe(200);
    // The one it went to leaves; another confirms on Tuesday.
    await h.db.update(newsletterSubscribers).set({ status: 'unsubscribed' });
    clock = Date.UTC(2026, 10, 24, 10, 0);
    await h.db
      .insert(newsletterSubscribers)
      .values({ email: 'tuesday@example.com', confirmed_at: new Date(clock - 60_000).toISOString() });
    s = await h.signIn();
    const preview = await json<{ composed: boolean; enqueued: number; later: number }>(
      await h.call(s, 'GET', '/api/admin/newsletter/issue'),
    );
    expect(preview).toMatchObject({ composed: true, enqueued: 1, later: 1 });
    const again = await h.call(s, 'POST', '/api/admin/newsletter/issue/send');
    expect(again.status).toBe(200);
    expect(await json(again)).toMatchObject({ week: '2026-W48', enqueued: 0, recipients: 1, later: 1, done: true });
    const copies = await h.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'newsletter_issue'));
    expect(copies.map((m) => m.to_address)).toEqual(['early@example.com']);
  });

  it('POST /api/admin/newsletter/issue/send under npm start writes every copy of a large issue in one request', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    const confirmed = new Date(Date.now() - 86_400_000).toISOString();
    await h.db
      .insert(newsletterSubscribers)
      .values(Array.from({ length: 450 }, (_, k) => ({ email: `node${k}@example.com`, confirmed_at: confirmed })));
    const sent = await h.call(s, 'POST', '/api/admin/newsletter/issue/send');
    expect(sent.status).toBe(200);
    expect(await json(sent)).toMatchObject({ enqueued: 450, recipients: 450, subscribers: 450, done: true });
    const copies = await h.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'newsletter_issue'));
    expect(copies).toHaveLength(450);
  });

  it("after the week's end, Send finishes last week's issue first and says so, the preview shows both by week, and only then this week's goes", async () => {
    let clock = Date.UTC(2026, 10, 22, 23, 0); // Sunday 23:00 UTC, the end of 2026-W47
    h = await createAdminHarness({ deps: { now: () => clock } });
    const confirmed = new Date(clock - 3_600_000).toISOString();
    await h.db
      .insert(newsletterSubscribers)
      .values(Array.from({ length: 250 }, (_, k) => ({ email: `late${k}@example.com`, confirmed_at: confirmed })));
    // Late on Sunday the week's issue is composed and a first part written; 50 copies are left.
    expect(await sendNewsletter({ db: h.db, env: h.env }, clock, { maxPages: 1 })).toMatchObject({
      week: '2026-W47',
      enqueued: 200,
      done: false,
    });
    clock = Date.UTC(2026, 10, 23, 0, 30); // Monday 00:30, 2026-W48
    // Someone confirms after midnight: this week's issue is theirs, last week's is not.
    await h.db
      .insert(newsletterSubscribers)
      .values({ email: 'monday@example.com', confirmed_at: new Date(clock - 60_000).toISOString() });
    const s = await h.signIn();
    type Preview = {
      week: string;
      composed: boolean;
      subject: string;
      recipients: number;
      owed: {
        week: string;
        subject: string;
        mail: { text: string };
        recipients: number;
        enqueued: number;
        left: number;
      } | null;
    };
    const before = await json<Preview>(await h.call(s, 'GET', '/api/admin/newsletter/issue'));
    expect(before).toMatchObject({ week: '2026-W48', composed: false, recipients: 251 });
    expect(before.subject).toMatch(/2026-W48$/);
    expect(before.owed).toMatchObject({ week: '2026-W47', recipients: 250, enqueued: 200, left: 50 });
    expect(before.owed!.subject).toMatch(/2026-W47$/);
    expect(before.owed!.mail.text).toContain('(2026-W47)');

    const first = await h.call(s, 'POST', '/api/admin/newsletter/issue/send');
    expect(first.status).toBe(200);
    expect(await json(first)).toEqual({
      week: '2026-W47',
      thisWeek: '2026-W48',
      composed: false,
      enqueued: 50,
      recipients: 250,
      subscribers: 250,
      later: 0,
      done: true,
    });
    // That press wrote last week's remainder only: this week's issue is not composed yet.
    expect(await getIssueByWeek(h.db, '2026-W48')).toBeNull();
    const copies = async (week: string) =>
      (await h.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'newsletter_issue'))).filter((m) =>
        m.dedupe_key.startsWith(`newsletter-issue:${week}:`),
      );
    expect(await copies('2026-W47')).toHaveLength(250);
    expect((await copies('2026-W47')).some((m) => m.to_address === 'monday@example.com')).toBe(false);
    const after = await json<Preview>(await h.call(s, 'GET', '/api/admin/newsletter/issue'));
    expect(after).toMatchObject({ week: '2026-W48', composed: false, recipients: 251, owed: null });

    const second = await h.call(s, 'POST', '/api/admin/newsletter/issue/send');
    expect(second.status).toBe(200);
    expect(await json(second)).toMatchObject({ week: '2026-W48', thisWeek: '2026-W48', composed: true, enqueued: 251 });
    expect(await copies('2026-W48')).toHaveLength(251);
  });

  it('unsubscribing an address gives up its newsletter mails still waiting in the outbox, as its own one-click does', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    const reader = await subscribeEmail(h.db, 'reader@example.com');
    const other = await subscribeEmail(h.db, 'other@example.com');
    if (!reader.ok || !other.ok) throw new Error('subscribe failed');
    // This week's issue is in the outbox, not yet sent.
    expect((await h.call(s, 'POST', '/api/admin/newsletter/issue/send')).status).toBe(200);
    const waiting = await h.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'newsletter_issue'));
    expect(waiting.map((m) => [m.to_address, m.status]).sort()).toEqual([
      ['other@example.com', 'pending'],
      ['reader@example.com', 'pending'],
    ]);
    // The reader asks support to take them off; an operator does it in the console.
    const res = await h.call(s, 'PATCH', `/api/admin/newsletter/${reader.subscriber.id}`, { status: 'unsubscribed' });
    expect(res.status).toBe(200);
    const issues = await h.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'newsletter_issue'));
    expect(issues.map((m) => [m.to_address, m.status]).sort()).toEqual([
      ['other@example.com', 'pending'],
      ['reader@example.com', 'failed'],
    ]);
  });

  it('sends a pending subscriber the confirmation again, never confirms it, and refuses a confirmed one', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    // Signed up two minutes ago: the resend is outside the signup's once-a-minute bucket.
    const mail = { mail: { subject: 'Confirm', text: 'Confirm', html: '<p>Confirm</p>' } };
    const pending = await signUpEmail(h.db, 'waiting@example.com', mail, Date.now() - 120_000);
    if (!pending.ok) throw new Error('sign-up failed');
    const active = await subscribeEmail(h.db, 'done@example.com');
    if (!active.ok) throw new Error('subscribe failed');
    const res = await h.call(s, 'POST', `/api/admin/newsletter/${pending.subscriber.id}/resend`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { subscriber: { status: string } }).subscriber.status).toBe('pending');
    const confirmations = await h.db.select().from(mailOutbox).where(eq(mailOutbox.to_address, 'waiting@example.com'));
    expect(confirmations.map((m) => m.kind)).toEqual(['newsletter_confirm', 'newsletter_confirm']);
    const refused = await h.call(s, 'POST', `/api/admin/newsletter/${active.subscriber.id}/resend`);
    expect(refused.status).toBe(409);
    expect(await auditActions('subscriber')).toEqual([expect.stringMatching(/^resend_confirmation/)]);
  });

  it('never makes an unsubscribed address active: the status field refuses it, and a confirmation makes it pending until its owner follows the link', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    const left = await subscribeEmail(h.db, 'left@example.com');
    if (!left.ok) throw new Error('subscribe failed');
    const id = left.subscriber.id;
    expect((await h.call(s, 'PATCH', `/api/admin/newsletter/${id}`, { status: 'unsubscribed' })).status).toBe(200);
    const active = await h.call(s, 'PATCH', `/api/admin/newsletter/${id}`, { status: 'active' });
    expect(active.status).toBe(400);
    const body = (await active.json()) as { error: { issues: { path: string; message: string }[] } };
    expect(body.error.issues[0]?.path).toBe('status');
    expect(body.error.issues[0]?.message).toMatch(/confirms their own address/);
    const [row] = await h.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, id));
    expect(row).toMatchObject({ status: 'unsubscribed', confirmed_at: expect.any(String) });
    // The confirmation: pending (not active), its mail queued, audited.
    const sent = await h.call(s, 'POST', `/api/admin/newsletter/${id}/resend`);
    expect(sent.status).toBe(200);
    expect(((await sent.json()) as { subscriber: { status: string } }).subscriber.status).toBe('pending');
    const mails = await h.db.select().from(mailOutbox).where(eq(mailOutbox.to_address, 'left@example.com'));
    expect(mails.map((m) => m.kind)).toContain('newsletter_confirm');
    expect(await auditActions('subscriber')).toEqual(
      expect.arrayContaining([expect.stringMatching(/^resend_confirmation/)]),
    );
  });

  it('exports subscribers as an attached CSV with a header row and quoted fields', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    await subscribeEmail(h.db, 'plain@example.com');
    await subscribeEmail(h.db, '"quoted,name"@example.com');
    const res = await h.call(s, 'GET', '/api/admin/newsletter/export.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="subscribers-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'id,email,status,premium_subscriber,source,interests,confirmed_at,unsubscribed_at,created_at',
    );
    expect(lines).toHaveLength(3);
    expect(lines.some((l) => l.includes('"""quoted,name""@example.com"'))).toBe(true);
    expect(await auditActions('newsletter')).toEqual([expect.stringMatching(/^export:/)]);
  });
});

describe('contact inbox and audit log', () => {
  it('lists messages, changes a status, and the audit screen lists every write newest first', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    const msg = await createContactMessage(h.db, {
      name: 'Bo',
      email: 'bo@example.com',
      subject: 'billing',
      message: 'Please send an invoice for last month.',
      priority: 'high',
    });
    const inbox = await json<{ messages: { id: number; status: string }[] }>(
      await h.call(s, 'GET', '/api/admin/contact'),
    );
    expect(inbox.messages).toEqual([expect.objectContaining({ id: msg.id, status: 'new' })]);
    expect((await h.call(s, 'PATCH', `/api/admin/contact/${msg.id}`, { status: 'replied' })).status).toBe(200);
    const filtered = await json<{ total: number }>(await h.call(s, 'GET', '/api/admin/contact?status=replied'));
    expect(filtered.total).toBe(1);
    const log = await json<{ entries: { action: string; entity: string }[] }>(
      await h.call(s, 'GET', '/api/admin/audit'),
    );
    expect(log.entries.map((e) => `${e.action} ${e.entity}`)).toEqual(['status contact', 'login operator']);
  });
});

describe('dashboard and build status', () => {
  it('the dashboard reports the 7-day funnel, queues, newsletter and premium performance', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    const premium = await createServer(h.db, { ...server('Premium Pit'), is_premium: true });
    await insertInteractions(h.db, [
      { interaction_type: 'view', target_type: 'server', server_id: premium.id },
      { interaction_type: 'click', target_type: 'server', server_id: premium.id, conversion_value: 5 },
      { interaction_type: 'signup', target_type: 'newsletter', conversion_value: 2 },
    ]);
    await insertSubmission(h.db, submission());
    await createReport(h.db, { server_id: premium.id, reason: 'spam', details: null });
    const d = await json<{
      funnel: Record<string, number>;
      daily: { date: string }[];
      submissions: { pending: number };
      pending: unknown[];
      openReports: { total: number; byServer: { name: string; open: number }[] };
      premium: { server_id: number; clicks: number }[];
    }>(await h.call(s, 'GET', '/api/admin/dashboard'));
    expect(d.funnel).toEqual({ views: 1, clicks: 1, signups: 1, conversions: 0 });
    expect(d.daily).toHaveLength(7);
    expect(d.submissions.pending).toBe(1);
    expect(d.pending).toHaveLength(1);
    expect(d.openReports.total).toBe(1);
    expect(d.openReports.byServer).toEqual([expect.objectContaining({ name: 'Premium Pit', open: 1 })]);
    expect(d.premium).toEqual([expect.objectContaining({ server_id: premium.id, clicks: 1 })]);
  });

  it("the dashboard's 7-day tiles count the chart's 7 UTC calendar days: each tile is the sum of its bars", async () => {
    const now = Date.UTC(2026, 10, 28, 12, 0); // Saturday noon UTC
    h = await createAdminHarness({ deps: { now: () => now } });
    const s = await h.signIn();
    const at = (iso: string) => ({
      interaction_type: 'view' as const,
      target_type: 'server' as const,
      created_at: iso,
    });
    await h.db.insert(userInteractions).values([
      // Within 7 × 24 hours, but on the day before the chart's first: in neither now.
      at('2026-11-21T13:00:00.000Z'),
      { ...at('2026-11-21T18:00:00.000Z'), interaction_type: 'signup', conversion_value: 2 },
      // The chart's first day, from its midnight, and today.
      at('2026-11-22T00:30:00.000Z'),
      { ...at('2026-11-25T09:00:00.000Z'), interaction_type: 'click', conversion_value: 1 },
      at('2026-11-28T11:00:00.000Z'),
    ]);
    const d = await json<{
      window: { from: string; to: string; days: number };
      funnel: Record<'views' | 'clicks' | 'signups' | 'conversions', number>;
      totals: { counts: Record<string, number>; worth: number };
      daily: ({ date: string } & Record<'views' | 'clicks' | 'signups' | 'conversions', number>)[];
    }>(await h.call(s, 'GET', '/api/admin/dashboard'));
    expect(d.window).toEqual({ from: '2026-11-22', to: '2026-11-28', days: 7 });
    expect(d.daily.map((b) => b.date)).toEqual([
      '2026-11-22',
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
    ]);
    for (const k of ['views', 'clicks', 'signups', 'conversions'] as const) {
      const bars = d.daily.reduce((n, b) => n + b[k], 0);
      expect([k, d.funnel[k]]).toEqual([k, bars]);
      expect([k, d.totals.counts[k.slice(0, -1)]]).toEqual([k, bars]);
    }
    expect(d.funnel).toEqual({ views: 2, clicks: 1, signups: 0, conversions: 0 });
    expect(d.totals.worth).toBe(1);
  });

  it('the premium performance sums revenue per currency, never one figure across currencies', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    const premium = await createServer(h.db, { ...server('Two Currencies'), is_premium: true });
    const paidAt = new Date(Date.now() - 86_400_000).toISOString();
    const order = (amount_cents: number, currency: string) => ({
      server_id: premium.id,
      placement: 'premium' as const,
      category: 'Trading',
      term_days: 7,
      amount_cents,
      currency,
      state: 'paid' as const,
      version: crypto.randomUUID(),
      paid_at: paidAt,
    });
    await h.db.insert(orders).values([order(4900, 'usd'), order(3000, 'usd'), order(500, 'jpy')]);
    const d = await json<{ premium: Record<string, unknown>[] }>(await h.call(s, 'GET', '/api/admin/dashboard'));
    expect(d.premium).toHaveLength(1);
    expect(d.premium[0]).not.toHaveProperty('total_revenue');
    expect(d.premium[0]!.revenue).toEqual([
      { currency: 'jpy', total_cents: 500, daily_cents: 17 },
      { currency: 'usd', total_cents: 7900, daily_cents: 263 },
    ]);
  });

  it('the dashboard lists the 5 submissions waiting longest, and its newsletter tiles add up to the total', async () => {
    h = await createAdminHarness();
    const s = await h.signIn();
    const ids = [];
    for (let i = 0; i < 7; i++) {
      const row = await insertSubmission(h.db, submission(`Waiting Guild ${i}`));
      await h.db
        .update(serverSubmissions)
        .set({ created_at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString() })
        .where(eq(serverSubmissions.id, row.id));
      ids.push(row.id);
    }
    await subscribeEmail(h.db, 'active@example.com');
    const mail = { mail: { subject: 'Confirm', text: 'Confirm', html: '<p>Confirm</p>' } };
    if (!(await signUpEmail(h.db, 'waiting@example.com', mail)).ok) throw new Error('sign-up');
    const d = await json<{ pending: { id: number }[]; newsletter: Record<string, number> }>(
      await h.call(s, 'GET', '/api/admin/dashboard'),
    );
    expect(d.pending.map((p) => p.id)).toEqual(ids.slice(0, 5));
    expect(d.newsletter).toMatchObject({ total: 2, active: 1, pending: 1, unsubscribed: 0 });
  });

  it('GET /api/admin/build reports a failed build with its error', async () => {
    const failed = {
      request: () => {},
      status: () => ({
        state: 'failed' as const,
        liveSince: '2026-01-01T00:00:00.000Z',
        lastDurationMs: 1234,
        lastError: 'astro build exited with 1: boom',
        lastReason: 'approved x',
      }),
    };
    h = await createAdminHarness({ deps: { rebuild: failed } });
    const s = await h.signIn('moderator');
    const res = await json<{ state: string; lastError: string; lastDurationMs: number }>(
      await h.call(s, 'GET', '/api/admin/build'),
    );
    expect(res).toMatchObject({ state: 'failed', lastError: 'astro build exited with 1: boom', lastDurationMs: 1234 });
  });

  it('GET /api/admin/build shows the rebuild state to every operator', async () => {
    h = await createAdminHarness();
    const s = await h.signIn('moderator');
    const res = await json<{ configured: boolean; state: string }>(await h.call(s, 'GET', '/api/admin/build'));
    expect(res).toMatchObject({ configured: true, state: 'idle' });
  });
});
