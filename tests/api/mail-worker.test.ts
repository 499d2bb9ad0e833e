import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLAIM_LEASE_MS, enqueueMail, listMails, RETRY_DELAYS_MS } from '../../db/queries/mail';
import { getIssueByWeek, subscribeEmail } from '../../db/queries/newsletter';
import { createOperator } from '../../db/queries/operators';
import { notifyOwner } from '../../db/queries/webhooks';
import { mailOutbox, newsletterSubscribers, ownerUsers } from '../../db/schema';
import { httpMailClient, MailSendError } from '../../functions/_app/clients/mail';
import { type Env, loadEnv } from '../../functions/_app/env';
import { run as sendMail } from '../../functions/_app/jobs/mail-sender';
import {
  WORKER_MAILS_PER_PASS,
  WORKER_NEWSLETTER_PAGES_PER_PASS,
  WORKER_NEWSLETTER_PAGES_PER_REQUEST,
  WORKER_WEBHOOKS_PER_PASS,
} from '../../functions/_app/jobs/schedule';
import { isoWeek } from '../../functions/_app/mail/week';
import worker, { workerEntry } from '../../functions/worker';
import { startLibsqlHttpServer } from '../fixtures/libsql-http-server';
import { createTestDb, type TestDb } from '../helpers/db';
import { startDiscordWebhookStandIn } from '../helpers/discord-webhook-stand-in';
import { startProviderStandIn } from '../helpers/mail-provider-stand-in';
import { FREE_PLAN_SUBREQUESTS, fetchSubrequests, scheduledSubrequests } from '../helpers/worker-invocation';
import { readWranglerConfig } from '../helpers/wrangler-config';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const mail = (subject: string) => ({ subject, text: `${subject} (text)`, html: `<p>${subject}</p>` });

describe('the HTTP mail provider (Cloudflare)', () => {
  it('POSTs Resend’s /emails shape with the bearer token; a refusal is final only when it is the mail’s own', async () => {
    const provider = await startProviderStandIn();
    cleanups.push(provider.close);
    const client = httpMailClient({ baseUrl: `${provider.url}/`, token: 're_test_token' });
    const sent = await client.send({
      from: 'GuildRank <hello@guildrank.test>',
      to: 'a@example.com',
      replyTo: 'v@example.com',
      ...mail('Hello'),
      headers: { 'List-Unsubscribe': '<https://guildrank.test/unsubscribe?token=a.b>' },
    });
    expect(sent).toEqual({ messageId: 're_1' });
    expect(provider.requests[0]).toEqual({
      path: '/emails',
      authorization: 'Bearer re_test_token',
      body: {
        from: 'GuildRank <hello@guildrank.test>',
        to: ['a@example.com'],
        subject: 'Hello',
        text: 'Hello (text)',
        html: '<p>Hello</p>',
        reply_to: 'v@example.com',
        headers: { 'List-Unsubscribe': '<https://guildrank.test/unsubscribe?token=a.b>' },
      },
    });
    // Per Resend's documented errors: the mail's own fault is final, the provider's state or the
    // site's settings (key, domain, URL) are not; a 5xx or an attempt in progress may have taken it.
    for (const [status, name, permanent, unconfirmed] of [
      [500, 'internal_server_error', false, true],
      [429, 'rate_limit_exceeded', false, false],
      [422, 'missing_required_field', true, false],
      [400, 'validation_error', true, false],
      [409, 'concurrent_idempotent_requests', false, true],
      [409, 'invalid_idempotent_request', true, false],
      [401, 'missing_api_key', false, false],
      [403, 'invalid_api_key', false, false],
      [404, 'not_found', false, false],
    ] as const) {
      provider.state.fail.push({ status, name });
      const err = await client
        .send({ from: 'x@guildrank.test', to: 'a@example.com', ...mail('Fails') })
        .catch((e) => e);
      expect(err).toBeInstanceOf(MailSendError);
      expect((err as MailSendError).permanent, `${status} ${name}`).toBe(permanent);
      expect((err as MailSendError).unconfirmed, `${status} ${name}`).toBe(unconfirmed);
    }
    await provider.close();
    const down = await client.send({ from: 'x@guildrank.test', to: 'a@example.com', ...mail('Down') }).catch((e) => e);
    expect(down as MailSendError).toMatchObject({ permanent: false, unconfirmed: true });
    cleanups.pop();
  });
});

describe('the HTTP provider’s answers to a retry (its idempotency keys)', () => {
  /** An outbox of `count` mails, the provider's stand-in, and one sender pass at a time through it. */
  async function senderSetup(count = 1, fetchFn?: typeof fetch, clock?: () => number) {
    const tdb = await createTestDb();
    cleanups.push(tdb.cleanup);
    const provider = await startProviderStandIn(clock ? { clock } : {});
    cleanups.push(provider.close);
    for (let i = 0; i < count; i++)
      await enqueueMail(tdb.db, {
        kind: 'contact_ack',
        dedupeKey: `retry:${i}`,
        to: `r${i}@example.com`,
        mail: mail(`Mail ${i}`),
      });
    const env = loadEnv({ DATABASE_URL: tdb.url, SITE_URL: 'https://guildrank.test' });
    const client = httpMailClient({ baseUrl: provider.url, token: 're_test', fetch: fetchFn });
    const pass = (at: number, over: Partial<Env> = {}) =>
      sendMail({ db: tdb.db, env: { ...env, ...over }, mail: client }, at);
    return { tdb, provider, pass };
  }

  it('a retry while the provider still works on the first attempt (409 concurrent_idempotent_requests) waits, and the mail goes out once', async () => {
    // The first attempt outlives the client's wait (its timeout, here 300 ms) while the provider goes on with it.
    const impatient: typeof fetch = (url, init) => fetch(url, { ...init, signal: AbortSignal.timeout(300) });
    const { tdb, provider, pass } = await senderSetup(1, impatient);
    const held = provider.holdNext();
    const t0 = Date.now() + 1000;
    expect(await pass(t0)).toMatchObject({ sent: 0, retried: 1, failed: 0 });
    await held.arrived;
    // A minute later the provider is still on it: 409 concurrent_idempotent_requests, try again later.
    expect(await pass(t0 + RETRY_DELAYS_MS[0])).toMatchObject({ sent: 0, retried: 1, failed: 0 });
    const [waiting] = (await listMails(tdb.db)).mails;
    expect(waiting).toMatchObject({ status: 'pending', attempts: 2 });
    expect(waiting?.last_error).toMatch(/concurrent_idempotent_requests/);
    // It finishes (the mail goes out); the next attempt is answered with its id and sends nothing more.
    held.release();
    await vi.waitFor(() => expect(provider.requests).toHaveLength(1));
    expect(await pass(t0 + RETRY_DELAYS_MS[0] + RETRY_DELAYS_MS[1])).toMatchObject({ sent: 1 });
    expect((await listMails(tdb.db)).mails.map((m) => [m.status, m.message_id])).toEqual([['sent', 're_1']]);
    expect(provider.requests).toHaveLength(1);
  });

  it('a key the provider took with another payload (409 invalid_idempotent_request) is given up at once, not retried', async () => {
    const { tdb, provider, pass } = await senderSetup(1);
    // The provider takes the mail, then its "sent" is lost; MAIL_FROM changes before the retry.
    await tdb.client.execute(`CREATE TRIGGER lose_sent BEFORE UPDATE ON mail_outbox WHEN NEW.status = 'sent'
      BEGIN SELECT RAISE(ABORT, 'connection lost'); END`);
    const t0 = Date.now() + 1000;
    await pass(t0);
    await tdb.client.execute('DROP TRIGGER lose_sent');
    expect(await pass(t0 + RETRY_DELAYS_MS[0], { MAIL_FROM: 'GuildRank <news@guildrank.test>' })).toMatchObject({
      failed: 1,
    });
    const [given] = (await listMails(tdb.db)).mails;
    expect(given?.status).toBe('failed');
    expect(given?.last_error).toMatch(/invalid_idempotent_request/);
    // Nothing is due any more: no loop of refused attempts, and one mail at the provider.
    expect(await pass(t0 + 30 * 86_400_000)).toMatchObject({ claimed: 0 });
    expect(provider.requests).toHaveLength(1);
  });

  it('a mail whose answer was lost is given up, not sent twice, once a retry would come after the provider forgets its key (24 hours)', async () => {
    // The provider takes the first attempt, but its answer never arrives (the connection drops).
    let lost = 1;
    const dropsAnswer: typeof fetch = async (url, init) => {
      const res = await fetch(url, init);
      if (lost-- <= 0) return res;
      await res.text();
      throw new TypeError('fetch failed: connection reset');
    };
    let at = Date.now() + 1000;
    const { tdb, provider, pass } = await senderSetup(1, dropsAnswer, () => at);
    expect(await pass(at)).toMatchObject({ sent: 0, retried: 1 });
    // Then it is down for about a day: the retries fail until the one after 24 hours.
    const down = RETRY_DELAYS_MS.slice(1).map(() => ({ status: 500, name: 'internal_server_error' }));
    provider.state.fail.push(...down);
    for (const delay of RETRY_DELAYS_MS) {
      if ((await listMails(tdb.db)).mails[0]?.status !== 'pending') break;
      at += delay;
      await pass(at);
    }
    // One mail at the provider, and the Outbox says why the mail was not tried again.
    expect(provider.requests).toHaveLength(1);
    const [given] = (await listMails(tdb.db)).mails;
    expect(given?.status).toBe('failed');
    expect(given?.last_error).toMatch(/Idempotency-Key.*24 hours/);
    expect(await pass(at + 30 * 86_400_000)).toMatchObject({ claimed: 0 });
  });

  it('a mail claimed by a sender that died mid-send is not sent once the provider may have forgotten its key', async () => {
    let at = Date.now() + 1000;
    const { tdb, provider, pass } = await senderSetup(1, undefined, () => at);
    // The provider takes the mail; the sender dies before it records anything.
    await tdb.client.execute(`CREATE TRIGGER crash BEFORE UPDATE OF status, attempts ON mail_outbox
      BEGIN SELECT RAISE(ABORT, 'sender died'); END`);
    await expect(pass(at)).rejects.toThrow();
    await tdb.client.execute('DROP TRIGGER crash');
    expect(provider.requests).toHaveLength(1);
    // No sender passes for a day (the sender down, the token unset), then one claims it again.
    at += 25 * 3_600_000;
    expect(await pass(at)).toMatchObject({ claimed: 1, sent: 0, failed: 1 });
    expect(provider.requests).toHaveLength(1);
    expect((await listMails(tdb.db)).mails[0]?.last_error).toMatch(/Idempotency-Key/);
  });

  it('a slow pass sends no mail after its claim could have run out: the rest go back for the next pass, each mail once', async () => {
    // Each send takes the provider 2 minutes (a clock the test moves): five would outlast the
    // claim's 5 minutes, after which another sender may claim the same mails.
    let clock = Date.now() + 1000;
    const t0 = clock;
    const sentAt: number[] = [];
    const slow: typeof fetch = async (url, init) => {
      sentAt.push(clock);
      clock += 2 * 60_000;
      return fetch(url, init);
    };
    const tdb = await createTestDb();
    cleanups.push(tdb.cleanup);
    const provider = await startProviderStandIn();
    cleanups.push(provider.close);
    for (let i = 0; i < 5; i++)
      await enqueueMail(tdb.db, {
        kind: 'contact_ack',
        dedupeKey: `slow:${i}`,
        to: `s${i}@example.com`,
        mail: mail(`S${i}`),
      });
    const env = loadEnv({ DATABASE_URL: tdb.url, SITE_URL: 'https://guildrank.test' });
    const deps = { db: tdb.db, env, mail: httpMailClient({ baseUrl: provider.url, token: 're_test', fetch: slow }) };
    const first = await sendMail(deps, t0, { clock: () => clock });
    expect(sentAt.every((at) => at < t0 + CLAIM_LEASE_MS)).toBe(true);
    expect(first.sent).toBeLessThan(5);
    // The rest are due again at once: the next passes send them, each as slow.
    for (let pass = 0; pass < 5; pass++) if ((await sendMail(deps, clock, { clock: () => clock })).claimed === 0) break;
    expect(provider.requests.map((r) => r.body.to[0]).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `s${i}@example.com`));
    expect((await listMails(tdb.db, { status: 'sent' })).total).toBe(5);
  });

  it('a refused API key (401, 403) keeps every mail waiting for the fixed setting instead of failing them all', async () => {
    const { tdb, provider, pass } = await senderSetup(6);
    for (let i = 0; i < 6; i++) provider.state.fail.push({ status: 403, name: 'invalid_api_key' });
    const t0 = Date.now() + 1000;
    // Two refusals in a row end the pass; the rest wait, none given up.
    expect(await pass(t0)).toMatchObject({ claimed: 6, sent: 0, failed: 0, retried: 2 });
    expect((await listMails(tdb.db, { status: 'failed' })).total).toBe(0);
    // The key is fixed a day later: everything goes out (a refusal took no mail, so no
    // Idempotency-Key had to be outlived).
    provider.state.fail.length = 0;
    expect(await pass(t0 + 30 * 3_600_000)).toMatchObject({ sent: 6, failed: 0 });
    expect(provider.requests).toHaveLength(6);
  });
});

/** The next Monday 09:00 UTC after `now` (ms): the newsletter's first pass of a week. */
function nextMondayAtNine(now: number): number {
  const d = new Date(now);
  d.setUTCHours(9, 0, 0, 0);
  d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7 || 7));
  return d.getTime();
}

/** A database the Worker reaches over HTTP (as it reaches Turso), a mail provider's stand-in and the Worker's bindings, cleaned up after the test. */
async function workerMailSetup() {
  const tdb: TestDb = await createTestDb();
  cleanups.push(tdb.cleanup);
  const libsql = await startLibsqlHttpServer({ file: tdb.url.replace(/^file:/, '') });
  cleanups.push(() => libsql.stop());
  const provider = await startProviderStandIn();
  cleanups.push(provider.close);
  // What the Worker is bound to: that database and the settings every invocation needs.
  const bindings = {
    ASSETS: { fetch: async () => new Response(null, { status: 404 }) },
    DATABASE_URL: libsql.url,
    SITE_URL: 'https://guildrank.test',
    SESSION_SECRET: 'worker-mail-test-secret-0123456789abcdef',
    IP_HASH_SECRET: 'worker-mail-test-ip-secret-0123456789abcd',
  };
  return { tdb, provider, bindings };
}

describe("the Worker's mail Cron Triggers", () => {
  it('wrangler.toml has the sender and the weekly newsletter triggers; the sender drains the outbox through MAIL_API_URL, and waits without it', async () => {
    const rawConfig = await readWranglerConfig();
    const crons = (rawConfig as { triggers?: { crons?: string[] } }).triggers?.crons ?? [];
    expect(crons).toEqual(expect.arrayContaining(['*/2 * * * *', '*/15 * * * *']));

    const setup = await workerMailSetup();
    const { tdb, provider } = setup;
    await enqueueMail(tdb.db, {
      kind: 'contact_ack',
      dedupeKey: 'worker:1',
      to: 'w@example.com',
      mail: mail('From the Worker'),
    });

    const { bindings } = setup;
    const scheduled = async (cron: string, extra: Record<string, string> = {}, scheduledTime = Date.now() + 1000) => {
      const pending: Promise<unknown>[] = [];
      worker.scheduled(
        { cron, scheduledTime },
        { ...bindings, ...extra },
        {
          waitUntil: (p) => void pending.push(p),
        },
      );
      await Promise.all(pending);
    };

    // No provider configured: the mail waits in the outbox.
    await scheduled('*/2 * * * *');
    expect((await listMails(tdb.db, { status: 'pending' })).total).toBe(1);
    await scheduled('*/2 * * * *', { MAIL_API_URL: provider.url, MAIL_API_TOKEN: 're_worker' });
    expect(provider.requests.map((r) => [r.body.to, r.body.subject, r.authorization])).toEqual([
      [['w@example.com'], 'From the Worker', 'Bearer re_worker'],
    ]);
    expect((await listMails(tdb.db, { status: 'sent' })).mails.map((m) => m.message_id)).toEqual(['re_1']);

    // The session sweep's trigger on Monday 09:00 composes the week's issue for the confirmed
    // subscribers; the sender delivers it.
    await subscribeEmail(tdb.db, 'weekly@example.com');
    const monday = nextMondayAtNine(Date.now());
    await scheduled('*/15 * * * *', {}, monday);
    expect((await getIssueByWeek(tdb.db, isoWeek(monday)))?.recipient_count).toBe(1);
    await scheduled('*/2 * * * *', { MAIL_API_URL: provider.url, MAIL_API_TOKEN: 're_worker' });
    const issue = provider.requests.at(-1)!.body;
    expect(issue.to).toEqual(['weekly@example.com']);
    expect(issue.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(issue.headers?.['List-Unsubscribe']).toMatch(
      /^<https:\/\/guildrank\.test\/unsubscribe\?token=[\w-]+\.[\w-]+>$/,
    );
  }, 60_000);
});

describe("the Worker's weekly newsletter", () => {
  it('writes a part of a large issue a pass within the Free plan’s 50 subrequests, the next pass going on from there, each copy once', async () => {
    const setup = await workerMailSetup();
    const { tdb } = setup;
    const confirmed = new Date(Date.now() - 86_400_000).toISOString();
    const total = WORKER_NEWSLETTER_PAGES_PER_PASS * 200 + 700;
    for (let start = 0; start < total; start += 1000)
      await tdb.db.insert(newsletterSubscribers).values(
        Array.from({ length: Math.min(1000, total - start) }, (_, k) => ({
          email: `reader${start + k}@example.com`,
          confirmed_at: confirmed,
        })),
      );
    const { bindings } = setup;
    const monday = nextMondayAtNine(Date.now());
    const week = isoWeek(monday);
    const copies = async () =>
      (await tdb.db.select({ key: mailOutbox.dedupe_key }).from(mailOutbox)).filter((m) =>
        m.key.startsWith(`newsletter-issue:${week}:`),
      ).length;
    // 09:00 composes the issue and writes the first part; 09:15 the rest; 09:30 nothing more.
    // About 40: composing the issue, 16 pages of copies, the session sweep.
    expect(await scheduledSubrequests('*/15 * * * *', monday, bindings)).toBeLessThanOrEqual(FREE_PLAN_SUBREQUESTS);
    expect(await copies()).toBe(WORKER_NEWSLETTER_PAGES_PER_PASS * 200);
    expect(await scheduledSubrequests('*/15 * * * *', monday + 15 * 60_000, bindings)).toBeLessThanOrEqual(
      FREE_PLAN_SUBREQUESTS,
    );
    expect(await copies()).toBe(total);
    await scheduledSubrequests('*/15 * * * *', monday + 30 * 60_000, bindings);
    expect(await copies()).toBe(total);
    expect((await getIssueByWeek(tdb.db, week))?.recipient_count).toBe(total);
  }, 60_000);
});

describe("the console's send of this week's issue on the Worker", () => {
  it('writes what fits in one request’s 50 subrequests, answers 202 with how many are written, and the next passes of the week write the rest, each copy once', async () => {
    const setup = await workerMailSetup();
    const { tdb, bindings } = setup;
    // More subscribers than one request writes (5,100 made 66 subrequests when the console wrote
    // them all at once): the rest is for the next scheduled pass.
    const total = WORKER_NEWSLETTER_PAGES_PER_REQUEST * 200 + 300;
    const confirmed = new Date(Date.now() - 86_400_000).toISOString();
    for (let start = 0; start < total; start += 1000)
      await tdb.db.insert(newsletterSubscribers).values(
        Array.from({ length: Math.min(1000, total - start) }, (_, k) => ({
          email: `console${start + k}@example.com`,
          confirmed_at: confirmed,
        })),
      );
    const password = 'correct horse battery staple';
    await createOperator(tdb.db, { email: 'ops@guildrank.test', password, role: 'admin' });
    const entry = workerEntry();
    const call = (method: string, path: string, session?: { cookie: string; csrf: string }, body?: unknown) =>
      fetchSubrequests(
        entry,
        new Request(`${bindings.SITE_URL}${path}`, {
          method,
          headers: {
            origin: bindings.SITE_URL,
            ...(body ? { 'content-type': 'application/json' } : {}),
            ...(session ? { cookie: session.cookie, 'x-csrf-token': session.csrf } : {}),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
        }),
        bindings,
      );
    const login = (await call('POST', '/api/admin/login', undefined, { email: 'ops@guildrank.test', password }))
      .response;
    expect(login.status).toBe(200);
    const session = {
      cookie: login.headers.get('set-cookie')!.split(';')[0]!,
      csrf: ((await login.json()) as { csrfToken: string }).csrfToken,
    };
    const week = isoWeek(Date.now());
    const copies = async () =>
      (await tdb.db.select({ key: mailOutbox.dedupe_key }).from(mailOutbox)).filter((m) =>
        m.key.startsWith(`newsletter-issue:${week}:`),
      ).length;

    const { response, subrequests } = await call('POST', '/api/admin/newsletter/issue/send', session);
    expect(subrequests).toBeLessThanOrEqual(FREE_PLAN_SUBREQUESTS);
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({
      week,
      composed: true,
      enqueued: WORKER_NEWSLETTER_PAGES_PER_REQUEST * 200,
      recipients: WORKER_NEWSLETTER_PAGES_PER_REQUEST * 200,
      subscribers: total,
      done: false,
    });
    expect(await copies()).toBe(WORKER_NEWSLETTER_PAGES_PER_REQUEST * 200);
    // The next pass of the session sweep's trigger, whatever the day of the week, writes the rest.
    expect(await scheduledSubrequests('*/15 * * * *', Date.now() + 1000, bindings)).toBeLessThanOrEqual(
      FREE_PLAN_SUBREQUESTS,
    );
    expect(await copies()).toBe(total);
    const preview = (await call('GET', '/api/admin/newsletter/issue', session)).response;
    expect(await preview.json()).toMatchObject({ composed: true, enqueued: total, recipients: total });
  }, 60_000);
});

describe('a mail the provider took whose "sent" was not recorded', () => {
  it('is not delivered again by the next attempt: the provider gets the same idempotency key', async () => {
    const setup = await workerMailSetup();
    const { tdb, provider } = setup;
    await enqueueMail(tdb.db, { kind: 'contact_ack', dedupeKey: 'once:1', to: 'once@example.com', mail: mail('Once') });
    const scheduled = async (at: number) => {
      const pending: Promise<unknown>[] = [];
      worker.scheduled(
        { cron: '*/2 * * * *', scheduledTime: at },
        {
          ...setup.bindings,
          MAIL_API_URL: provider.url,
          MAIL_API_TOKEN: 're_worker',
        },
        { waitUntil: (p) => void pending.push(p) },
      );
      await Promise.all(pending);
    };
    // The provider takes the mail, then the database refuses to record it as sent (a lost write).
    await tdb.client.execute(`CREATE TRIGGER lose_sent BEFORE UPDATE ON mail_outbox WHEN NEW.status = 'sent'
      BEGIN SELECT RAISE(ABORT, 'connection lost'); END`);
    const t0 = Date.now() + 1000;
    await scheduled(t0);
    expect(provider.requests).toHaveLength(1);
    expect((await listMails(tdb.db, { status: 'pending' })).total).toBe(1);
    await tdb.client.execute('DROP TRIGGER lose_sent');
    // The retry a minute later: recorded as sent under the first attempt's id, and delivered once.
    await scheduled(t0 + RETRY_DELAYS_MS[0] + 1000);
    const [sent] = (await listMails(tdb.db, { status: 'sent' })).mails;
    expect(sent?.message_id).toBe('re_1');
    expect(provider.requests).toHaveLength(1);
  }, 60_000);
});

describe("the Worker's every-2-minutes invocation", () => {
  it('runs the mail sender and the webhook sender within the Free plan’s 50 subrequests, the rest left for the next', async () => {
    const setup = await workerMailSetup();
    const { tdb, provider } = setup;
    const hooks = await startDiscordWebhookStandIn();
    cleanups.push(hooks.close);
    // Both outboxes fuller than one pass: the weekly issue's copies, and owners' notices.
    for (let i = 0; i < 40; i++)
      await enqueueMail(tdb.db, {
        kind: 'newsletter_issue',
        dedupeKey: `full:${i}`,
        to: `r${i}@example.com`,
        mail: mail(`Issue ${i}`),
      });
    for (let i = 0; i < 12; i++) {
      const [owner] = await tdb.db
        .insert(ownerUsers)
        .values({
          discord_user_id: String(700_000_000_000_000_000n + BigInt(i)),
          username: `owner${i}`,
          webhook_url: `https://discord.com/api/webhooks/${800_000_000_000_000_000n + BigInt(i)}/${'tOkEn_-'.repeat(10)}`,
        })
        .returning();
      await notifyOwner(
        tdb.db,
        { ownerId: owner!.id },
        { kind: 'invite_dead', serverName: `S${i}`, url: 'https://guildrank.test/account' },
        `full:${i}`,
      );
    }
    const bindings = {
      ...setup.bindings,
      MAIL_API_URL: provider.url,
      MAIL_API_TOKEN: 're_worker',
      DISCORD_WEBHOOK_BASE: hooks.url,
    };
    const invocation = (at: number) => scheduledSubrequests('*/2 * * * *', at, bindings);
    const t0 = Date.now() + 1000;
    expect(await invocation(t0)).toBeLessThanOrEqual(FREE_PLAN_SUBREQUESTS);
    expect(provider.requests).toHaveLength(WORKER_MAILS_PER_PASS);
    expect(hooks.posts).toHaveLength(WORKER_WEBHOOKS_PER_PASS);
    // The next invocation takes the next ones; none is sent twice.
    expect(await invocation(t0 + 120_000)).toBeLessThanOrEqual(FREE_PLAN_SUBREQUESTS);
    const recipients = provider.requests.map((r) => r.body.to[0]);
    expect(recipients).toHaveLength(2 * WORKER_MAILS_PER_PASS);
    expect(new Set(recipients).size).toBe(recipients.length);
    expect(new Set(hooks.posts.map((p) => p.id)).size).toBe(2 * WORKER_WEBHOOKS_PER_PASS);
    expect((await listMails(tdb.db, { status: 'pending' })).total).toBe(40 - 2 * WORKER_MAILS_PER_PASS);
  }, 60_000);
});
