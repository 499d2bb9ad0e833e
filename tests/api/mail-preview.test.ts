import { afterEach, describe, expect, it } from 'vitest';
import { enqueueMail, getMailById, listMails } from '../../db/queries/mail';
import { createOperator } from '../../db/queries/operators';
import { newsletterSubscribers } from '../../db/schema';
import { run as sendNewsletter } from '../../functions/_app/jobs/newsletter';
import { parsePolicy } from '../../functions/_app/lib/security-headers';
import { isoWeek } from '../../functions/_app/mail/week';
import { workerEntry } from '../../functions/worker';
import { startLibsqlHttpServer } from '../fixtures/libsql-http-server';
import { createAdminHarness } from '../helpers/admin';
import { createTestDb } from '../helpers/db';
import { fetchSubrequests } from '../helpers/worker-invocation';

/**
 * The console's mail previews (the Outbox's HTML part, the Newsletter screen's issue): each served
 * as a document of its own by an admin route, with its own policy (inline styles, no script,
 * framed by the site only), so the console's frame shows the mail as it is received.
 */

const HOUR = 3_600_000;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A mail's HTML as the templates write it: inline styles, and a user's text escaped. */
const STYLED_HTML =
  '<!doctype html><html><body style="margin:0;background:#f6f6f9"><p style="color:#4f46e5">Hello &lt;script&gt;alert(1)&lt;/script&gt; &amp; friends</p></body></html>';

/** Checks the preview answer's headers: the strict policy of its own, framing by the site only, nothing stored. */
function expectPreviewHeaders(res: Response) {
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const policy = parsePolicy(res.headers.get('content-security-policy') ?? '');
  expect(Object.fromEntries(policy)).toEqual({
    'default-src': "'none'",
    'img-src': 'https: data:',
    'style-src': "'unsafe-inline'",
    'base-uri': "'none'",
    'form-action': "'none'",
    'frame-ancestors': "'self'",
    sandbox: '',
  });
  // No script of any kind: nothing names one, and default-src 'none' covers script-src.
  expect(policy.has('script-src')).toBe(false);
  expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('cache-control')).toBe('no-store');
}

describe('GET /api/admin/mail/:id/preview', () => {
  it('answers the outbox mail’s HTML as stored, with its own strict policy; 401 without a session, 403 for a moderator, 404 for an unknown id', async () => {
    const h = await createAdminHarness();
    cleanups.push(h.cleanup);
    await enqueueMail(h.db, {
      kind: 'contact_ack',
      dedupeKey: 'preview:1',
      to: 'preview@example.com',
      mail: { subject: 'Preview check', text: 'Text part', html: STYLED_HTML },
    });
    const { mails } = await listMails(h.db, { page: 1, perPage: 10 });
    const id = mails.find((m) => m.to_address === 'preview@example.com')!.id;
    const admin = await h.signIn('admin');

    const res = await h.call(admin, 'GET', `/api/admin/mail/${id}/preview`);
    expect(res.status).toBe(200);
    expectPreviewHeaders(res);
    // Byte for byte the stored HTML part: nothing unescaped, nothing added.
    expect(await res.text()).toBe(STYLED_HTML);
    expect((await getMailById(h.db, id))!.html_body).toBe(STYLED_HTML);

    const anonymous = await h.call(null, 'GET', `/api/admin/mail/${id}/preview`);
    expect(anonymous.status).toBe(401);
    // The refusal is the API's JSON, which no page may frame.
    expect(anonymous.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe('unauthenticated');
    const moderator = await h.signIn('moderator');
    expect((await h.call(moderator, 'GET', `/api/admin/mail/${id}/preview`)).status).toBe(403);

    const unknown = await h.call(admin, 'GET', `/api/admin/mail/${id + 1000}/preview`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'not_found', message: `No mail ${id + 1000}` } });
    const bad = await h.call(admin, 'GET', '/api/admin/mail/abc/preview');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { issues: [expect.objectContaining({ path: 'id' })] } });
  });
});

describe('GET /api/admin/newsletter/issue/:week/preview', () => {
  it('answers the HTML of the issue the preview shows for this week, and for last week while copies of it are owed; any other week is a 404', async () => {
    const d = new Date();
    d.setUTCHours(9, 0, 0, 0);
    d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7 || 7));
    const monday = d.getTime();
    let clock = monday - 8 * HOUR;
    const h = await createAdminHarness({ deps: { now: () => clock } });
    cleanups.push(h.cleanup);
    // 250 subscribers: a send late on Sunday that writes one page of 200 leaves 50 copies owed.
    const confirmed = new Date(monday - 3 * 24 * HOUR).toISOString();
    await h.db
      .insert(newsletterSubscribers)
      .values(Array.from({ length: 250 }, (_, i) => ({ email: `reader${i}@example.com`, confirmed_at: confirmed })));
    const sunday = monday - 9 * HOUR - 10 * 60_000;
    await sendNewsletter({ db: h.db, env: h.env }, sunday, { maxPages: 1 });
    const [lastWeek, thisWeek] = [isoWeek(sunday), isoWeek(clock)];
    const admin = await h.signIn('admin');

    const json = (await (await h.call(admin, 'GET', '/api/admin/newsletter/issue')).json()) as {
      week: string;
      mail: { html: string };
      owed: { week: string; mail: { html: string } } | null;
    };
    expect(json.week).toBe(thisWeek);
    expect(json.owed?.week).toBe(lastWeek);

    for (const [week, html] of [
      [thisWeek, json.mail.html],
      [lastWeek, json.owed!.mail.html],
    ] as const) {
      const res = await h.call(admin, 'GET', `/api/admin/newsletter/issue/${week}/preview`);
      expect(res.status).toBe(200);
      expectPreviewHeaders(res);
      expect(await res.text()).toBe(html);
    }
    expect(json.mail.html).toContain('style="');
    expect(json.mail.html).not.toBe(json.owed!.mail.html);

    // Once last week's copies are all written, only this week's issue has a preview.
    await sendNewsletter({ db: h.db, env: h.env }, clock);
    const done = await h.call(admin, 'GET', `/api/admin/newsletter/issue/${lastWeek}/preview`);
    expect(done.status).toBe(404);
    expect(((await done.json()) as { error: { code: string } }).error.code).toBe('not_found');
    expect((await h.call(admin, 'GET', '/api/admin/newsletter/issue/2020-W01/preview')).status).toBe(404);
    const bad = await h.call(admin, 'GET', '/api/admin/newsletter/issue/next-week/preview');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { issues: [expect.objectContaining({ path: 'week' })] } });

    clock = monday;
    expect((await h.call(null, 'GET', `/api/admin/newsletter/issue/${isoWeek(clock)}/preview`)).status).toBe(401);
    const moderator = await h.signIn('moderator');
    expect((await h.call(moderator, 'GET', `/api/admin/newsletter/issue/${isoWeek(clock)}/preview`)).status).toBe(403);
  });
});

describe('the preview on the Worker', () => {
  it('keeps its own policy and frame header: the Worker’s security headers do not replace them', async () => {
    const tdb = await createTestDb();
    cleanups.push(tdb.cleanup);
    const libsql = await startLibsqlHttpServer({ file: tdb.url.replace(/^file:/, '') });
    cleanups.push(() => libsql.stop());
    const bindings = {
      ASSETS: { fetch: async () => new Response(null, { status: 404 }) },
      DATABASE_URL: libsql.url,
      SITE_URL: 'https://guildrank.test',
      SESSION_SECRET: 'worker-preview-test-secret-0123456789abcdef',
      IP_HASH_SECRET: 'worker-preview-test-ip-secret-0123456789ab',
    };
    await enqueueMail(tdb.db, {
      kind: 'contact_ack',
      dedupeKey: 'worker-preview:1',
      to: 'worker-preview@example.com',
      mail: { subject: 'Worker preview', text: 'Text part', html: STYLED_HTML },
    });
    const id = (await listMails(tdb.db, { page: 1, perPage: 10 })).mails[0]!.id;
    const password = 'correct horse battery staple';
    await createOperator(tdb.db, { email: 'ops@guildrank.test', password, role: 'admin' });
    const entry = workerEntry();
    const call = async (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
      (
        await fetchSubrequests(
          entry,
          new Request(`${bindings.SITE_URL}${path}`, {
            method,
            headers: {
              origin: bindings.SITE_URL,
              ...(body ? { 'content-type': 'application/json' } : {}),
              ...headers,
            },
            ...(body ? { body: JSON.stringify(body) } : {}),
          }),
          bindings,
        )
      ).response;
    const login = await call('POST', '/api/admin/login', {}, { email: 'ops@guildrank.test', password });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;

    const res = await call('GET', `/api/admin/mail/${id}/preview`, { cookie });
    expect(res.status).toBe(200);
    expectPreviewHeaders(res);
    expect(await res.text()).toBe(STYLED_HTML);
    expect((await call('GET', `/api/admin/mail/${id}/preview`)).status).toBe(401);
  });
});
