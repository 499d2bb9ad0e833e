import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import type { ServerType } from '@hono/node-server';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueMail, listMails, RECIPIENT_HOURLY_CAP } from '../../db/queries/mail';
import { getSubscriberByEmail } from '../../db/queries/newsletter';
import { createOperator } from '../../db/queries/operators';
import { createApp } from '../../functions/_app/app';
import { MailSendError } from '../../functions/_app/clients/mail';
import { smtpMailClient } from '../../functions/_app/clients/mail-smtp';
import { type Env, loadEnv } from '../../functions/_app/env';
import { run as sendMail } from '../../functions/_app/jobs/mail-sender';
import { run as sendNewsletter } from '../../functions/_app/jobs/newsletter';
import { run as refresh } from '../../functions/_app/jobs/refresh';
import { RecordingRebuild } from '../helpers/admin';
import { createTestDb, type TestDb } from '../helpers/db';
import { type DiscordStandIn, startDiscordStandIn } from '../helpers/discord-stand-in';
import { type ReceivedMail, type SmtpStandIn, startSmtpStandIn } from '../helpers/smtp-stand-in';
import { freePort } from '../helpers/wrangler-dev';
import { validSubmission } from './api-harness';

/**
 * Every mail of #16 end to end: the app served over real HTTP on loopback, a real SMTP server
 * (smtp-server) on loopback, the sender job in between. Each test uses its own addresses.
 */

const HOUR = 3_600_000;
const SECRET = 'mail-test-session-secret-0123456789abcdef';
const FROM = 'GuildRank <hello@guildrank.test>';

let tdb: TestDb;
let smtp: SmtpStandIn;
let discord: DiscordStandIn;
let server: ServerType;
let site: string;
let env: Env;
let clock = Date.now();
let admin: { cookie: string; csrf: string };
const mailer = () => smtpMailClient(smtp.url);

beforeAll(async () => {
  tdb = await createTestDb();
  smtp = await startSmtpStandIn();
  discord = await startDiscordStandIn({ permissive: true });
  const port = await freePort();
  site = `http://127.0.0.1:${port}`;
  env = loadEnv({
    DATABASE_URL: tdb.url,
    SITE_URL: site,
    SESSION_SECRET: SECRET,
    SMTP_URL: smtp.url,
    MAIL_FROM: FROM,
    SUPPORT_EMAIL: 'support@guildrank.test',
    DISCORD_API_BASE: discord.url,
    RATE_LIMITS: 'false',
  });
  const app = createApp({ db: tdb.db, env, rebuild: new RecordingRebuild(), now: () => clock });
  server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' });
  await new Promise<void>((ok) => server.once('listening', () => ok()));
  await createOperator(tdb.db, {
    email: 'admin@guildrank.test',
    password: 'correct horse battery staple',
    role: 'admin',
  });
  const res = await http('POST', '/api/admin/login', {
    json: { email: 'admin@guildrank.test', password: 'correct horse battery staple' },
  });
  admin = {
    cookie: res.headers.get('set-cookie')!.split(';')[0]!,
    csrf: ((await res.json()) as { csrfToken: string }).csrfToken,
  };
}, 60_000);

afterAll(async () => {
  await new Promise<void>((ok) => server.close(() => ok()));
  await smtp.stop();
  await discord.close();
  tdb.cleanup();
});

/** A request to the served app over real HTTP, as the site's own pages send it (Origin set). */
function http(
  method: string,
  pathOrUrl: string,
  {
    json,
    form,
    session,
    origin = true,
  }: { json?: unknown; form?: Record<string, string>; session?: typeof admin; origin?: boolean } = {},
) {
  const headers: Record<string, string> = {};
  if (origin) headers.origin = site;
  if (session) Object.assign(headers, { cookie: session.cookie, 'x-csrf-token': session.csrf });
  if (json !== undefined) headers['content-type'] = 'application/json';
  if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
  return fetch(pathOrUrl.startsWith('http') ? pathOrUrl : `${site}${pathOrUrl}`, {
    method,
    headers,
    redirect: 'manual',
    ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
}

/** One pass of the sender now, through the loopback SMTP server. */
const deliver = () => sendMail({ db: tdb.db, env, mail: mailer() }, Date.now());

/** The links of a mail's text part on this site. */
const linksOf = (mail: ReceivedMail) => [...mail.text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]);

/** The URL inside `List-Unsubscribe: <…>`. */
const listUnsubscribe = (mail: ReceivedMail) => /^<([^>]+)>$/.exec(mail.headers['list-unsubscribe'] ?? '')?.[1];

/** Checks a newsletter mail's RFC 8058 headers, and that its body carries the same link; returns it. */
function oneClickUrl(mail: ReceivedMail): string {
  const url = listUnsubscribe(mail)!;
  expect(url).toMatch(new RegExp(`^${site.replace(/[.:/]/g, '\\$&')}/unsubscribe\\?token=[\\w-]+\\.[\\w-]+$`));
  expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  expect(linksOf(mail)).toContain(url);
  expect(mail.html).toContain(`href="${url}"`);
  return url;
}

describe('the submitter’s mails, over SMTP', () => {
  it('received on submit, then approved with the live /server/{slug} address', async () => {
    const to = 'approved-owner@example.com';
    const submitted = await http('POST', '/api/submissions', {
      json: validSubmission({
        server_name: 'Mail Approved Guild',
        contact_email: to,
        invite_link: 'https://discord.gg/mailapproved',
      }),
    });
    expect(submitted.status).toBe(201);
    const { submission } = (await submitted.json()) as { submission: { id: number } };
    expect((await deliver()).sent).toBeGreaterThanOrEqual(1);
    const [received] = await smtp.waitFor(to);
    expect(received!.subject).toBe('We received Mail Approved Guild');
    expect(received!.headers.from).toBe('GuildRank <hello@guildrank.test>');
    expect(received!.envelope).toEqual({ from: 'hello@guildrank.test', to: [to] });
    expect(received!.text).toContain('1 submission is waiting for review.');
    expect(received!.headers['list-unsubscribe']).toBeUndefined();

    const approved = await http('POST', `/api/admin/submissions/${submission.id}/approve`, {
      json: {},
      session: admin,
    });
    expect(approved.status).toBe(200);
    const { server: listing } = (await approved.json()) as { server: { slug: string } };
    await deliver();
    const [, approval] = await smtp.waitFor(to, 2);
    expect(approval!.subject).toBe('Mail Approved Guild is approved');
    const page = `${site}/server/${listing.slug}`;
    expect(linksOf(approval!)).toContain(page);
    expect(approval!.html).toContain(`href="${page}"`);
    // The link names the listing the approval made: the public API finds it under that slug.
    const api = (await (
      await http('GET', `/api/servers?search=${encodeURIComponent('Mail Approved Guild')}`)
    ).json()) as {
      servers: { slug: string }[];
    };
    expect(api.servers.map((s) => s.slug)).toEqual([listing.slug]);
    // A second approval changes nothing and mails nothing.
    await http('POST', `/api/admin/submissions/${submission.id}/approve`, { json: {}, session: admin });
    await deliver();
    expect(smtp.to(to)).toHaveLength(2);
  });

  it('rejected with the operator’s note, once', async () => {
    const to = 'rejected-owner@example.com';
    const submitted = await http('POST', '/api/submissions', {
      json: validSubmission({
        server_name: 'Mail Rejected Guild',
        contact_email: to,
        invite_link: 'https://discord.gg/mailrejected',
      }),
    });
    const { submission } = (await submitted.json()) as { submission: { id: number } };
    const note = 'The description is <b>copied</b> from another listing.';
    const rejected = await http('PATCH', `/api/admin/submissions/${submission.id}`, {
      json: { status: 'rejected', reasons: ['misleading'], admin_notes: note },
      session: admin,
    });
    expect(rejected.status).toBe(200);
    // Saving the same decision again is no new decision.
    await http('PATCH', `/api/admin/submissions/${submission.id}`, {
      json: { status: 'rejected', reasons: ['misleading'], admin_notes: note },
      session: admin,
    });
    await deliver();
    const mails = await smtp.waitFor(to, 2);
    expect(mails.map((m) => m.subject)).toEqual([
      'We received Mail Rejected Guild',
      'Mail Rejected Guild was not approved',
    ]);
    expect(mails[1]!.text).toContain(`> ${note}`);
    expect(mails[1]!.html).toContain('The description is &lt;b&gt;copied&lt;/b&gt; from another listing.');
    expect(linksOf(mails[1]!)).toContain(`${site}/submit-server`);
  });

  it('a listing whose invite died tells its submitter how to fix it, once', async () => {
    const own = await startDiscordStandIn();
    try {
      const to = 'dead-owner@example.com';
      own.invites.set('deadinvite', {
        guild: { id: '770000000000000001', name: 'Dead Invite Guild' },
        memberCount: 90,
        onlineCount: 9,
      });
      const refreshEnv = { ...env, DISCORD_API_BASE: own.url };
      // Submitted and approved through the app; the refresh job then asks `own`.
      const checkApp = createApp({ db: tdb.db, env: refreshEnv, rebuild: new RecordingRebuild() });
      const res = await checkApp.request('/api/submissions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: site },
        body: JSON.stringify(
          validSubmission({
            server_name: 'Dead Invite Guild',
            contact_email: to,
            invite_link: 'https://discord.gg/deadinvite',
          }),
        ),
      });
      const { submission } = (await res.json()) as { submission: { id: number } };
      const approved = await http('POST', `/api/admin/submissions/${submission.id}/approve`, {
        json: {},
        session: admin,
      });
      const { server: listing } = (await approved.json()) as { server: { slug: string } };
      own.invites.delete('deadinvite');
      const pass = (at: number) =>
        refresh({ db: tdb.db, env: refreshEnv }, at, { random: () => 0.5, sleep: async () => {} });
      const day = Date.now() + 24 * HOUR;
      for (const at of [day, day + HOUR, day + 7 * HOUR, day + 31 * HOUR, day + 55 * HOUR]) await pass(at);
      // Once, however many passes find it dead.
      const notices = (await listMails(tdb.db, { kind: 'invite_dead' })).mails.filter((m) => m.to_address === to);
      expect(notices).toHaveLength(1);
      await deliver();
      const mails = await smtp.waitFor(to, 3);
      const dead = mails.find((m) => m.subject === 'The invite of Dead Invite Guild stopped working')!;
      expect(dead.text).toMatch(/never expire/);
      expect(linksOf(dead)).toEqual(expect.arrayContaining([`${site}/server/${listing.slug}`, `${site}/contact`]));
      expect(dead.headers['reply-to']).toBe('support@guildrank.test');
    } finally {
      await own.close();
    }
  }, 60_000);
});

describe('contact mails, over SMTP', () => {
  it('the message goes to SUPPORT_EMAIL with Reply-To the visitor, and the visitor gets an acknowledgement', async () => {
    const visitor = 'visitor-contact@example.com';
    const sent = await http('POST', '/api/contact', {
      json: { name: 'Grace', email: visitor, subject: 'technical', message: 'The search box <b>is</b> slow.' },
    });
    expect(sent.status).toBe(201);
    await deliver();
    const [ack] = await smtp.waitFor(visitor);
    expect(ack!.subject).toBe('We received your message: Technical support');
    // The visitor's address is unproven: the acknowledgement quotes nothing they typed.
    expect(ack!.text).not.toContain('search box');
    expect(ack!.html).not.toContain('search box');
    const toSupport = smtp.to('support@guildrank.test').find((m) => m.headers['reply-to'] === visitor)!;
    expect(toSupport.subject).toBe('[Contact] Technical support: Grace');
    expect(toSupport.text).toContain('The search box <b>is</b> slow.');
    expect(toSupport.html).toContain('The search box &lt;b&gt;is&lt;/b&gt; slow.');
  });
});

describe('newsletter confirmation links expire', () => {
  it('a link older than 7 days answers 410 and confirms nothing; signing up again sends a new link that works', async () => {
    const reader = 'reader-late@example.com';
    expect((await http('POST', '/api/newsletter', { json: { email: reader } })).status).toBe(201);
    await deliver();
    const [first] = await smtp.waitFor(reader);
    const oldUrl = linksOf(first!).find((l) => l.includes('/newsletter/confirm?token='))!;
    clock += 7 * 24 * HOUR + 60_000;
    try {
      const page = await http('GET', oldUrl, { origin: false });
      expect(page.status).toBe(410);
      expect(await page.text()).toContain('This link has expired');
      expect((await http('POST', oldUrl, { form: {} })).status).toBe(410);
      expect((await getSubscriberByEmail(tdb.db, reader))?.status).toBe('pending');
      // A re-signup gets a new link, which works.
      expect((await http('POST', '/api/newsletter', { json: { email: reader } })).status).toBe(201);
      await deliver();
      const mails = await smtp.waitFor(reader, 2);
      const newUrl = linksOf(mails[1]!).find((l) => l.includes('/newsletter/confirm?token='))!;
      expect(newUrl).not.toBe(oldUrl);
      expect((await http('POST', newUrl, { form: {} })).status).toBe(200);
      expect((await getSubscriberByEmail(tdb.db, reader))?.status).toBe('active');
    } finally {
      clock -= 7 * 24 * HOUR + 60_000;
    }
  });
});

describe('no mail relay through the contact form', () => {
  it(`50 contact posts from 10 addresses to one recipient deliver at most ${RECIPIENT_HOURLY_CAP} mails, none with the sender's text`, async () => {
    const victim = 'relay-victim@example.com';
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await fetch(`${site}/api/contact`, {
        method: 'POST',
        headers: { origin: site, 'content-type': 'application/json', 'cf-connecting-ip': `198.51.100.${i % 10}` },
        body: JSON.stringify({
          name: 'Buy cheap pills at spam.example',
          // Case varies: the cap counts the address, not its spelling.
          email: i % 2 ? victim : victim.toUpperCase(),
          subject: 'general',
          message: `Attacker text ${i}: visit https://spam.example now`,
        }),
      });
      statuses.push(res.status);
    }
    // Every message reached the team (stored, and mailed to SUPPORT_EMAIL): only the acknowledgements stop.
    expect(statuses.every((s) => s === 201)).toBe(true);
    await deliver();
    await smtp.waitFor(victim, 1);
    await deliver();
    const got = smtp.mails.filter((m) => m.envelope.to.some((r) => r.toLowerCase() === victim));
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThanOrEqual(RECIPIENT_HOURLY_CAP);
    for (const mail of got)
      expect(`${mail.subject}${mail.text}${mail.html}`).not.toMatch(/Attacker text|spam\.example/);
    // The newsletter's confirmation to the same address counts against the same cap.
    expect((await http('POST', '/api/newsletter', { json: { email: victim } })).status).toBe(201);
    const outbox = await tdb.client.execute({
      sql: 'SELECT count(*) AS n FROM mail_outbox WHERE lower(to_address) = ?',
      args: [victim],
    });
    expect(Number(outbox.rows[0]?.n)).toBe(RECIPIENT_HOURLY_CAP);
  });
});

describe('the newsletter, over SMTP and HTTP', () => {
  it('double opt-in, the weekly issue, one-click unsubscribe, and nothing from a second send', async () => {
    const reader = 'reader-flow@example.com';
    const waiting = 'reader-never-confirms@example.com';
    const signup = await http('POST', '/api/newsletter', { json: { email: reader } });
    expect(signup.status).toBe(201);
    expect(await signup.json()).toMatchObject({
      subscriber: { email: reader, status: 'pending' },
      confirmation: 'sent',
    });
    expect((await http('POST', '/api/newsletter', { json: { email: waiting } })).status).toBe(201);
    await deliver();
    const [confirmation] = await smtp.waitFor(reader);
    expect(confirmation!.subject).toBe('Confirm your GuildRank newsletter subscription');
    oneClickUrl(confirmation!);

    // Signing up again while pending: still pending, the link again (once a minute at most).
    clock += 61_000;
    expect((await http('POST', '/api/newsletter', { json: { email: reader } })).status).toBe(201);
    await deliver();
    const confirmations = await smtp.waitFor(reader, 2);
    expect(confirmations[1]!.subject).toBe(confirmation!.subject);

    // The confirmation link: a GET shows one button (a scanner confirms nothing), its POST confirms.
    const confirmUrl = linksOf(confirmation!).find((l) => l.includes('/newsletter/confirm?token='))!;
    expect(confirmUrl.startsWith(`${site}/newsletter/confirm?token=`)).toBe(true);
    const confirmPage = await http('GET', confirmUrl, { origin: false });
    expect(confirmPage.status).toBe(200);
    const pageHtml = await confirmPage.text();
    expect(pageHtml.match(/<button/g)).toHaveLength(1);
    expect((await getSubscriberByEmail(tdb.db, reader))?.status).toBe('pending');
    const action = /<form method="post" action="([^"]+)"/.exec(pageHtml)![1]!.replace(/&amp;/g, '&');
    const confirmed = await http('POST', `${site}${action}`, { form: {} });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('You are subscribed');
    expect((await getSubscriberByEmail(tdb.db, reader))?.status).toBe('active');
    expect(await (await http('POST', '/api/newsletter', { json: { email: reader } })).json()).toMatchObject({
      error: { code: 'already_subscribed', message: 'Email already subscribed' },
    });

    await deliver();
    const welcome = (await smtp.waitFor(reader, 3))[2]!;
    expect(welcome.subject).toBe('You are subscribed to the GuildRank weekly picks');
    oneClickUrl(welcome);

    // The week's issue: to the confirmed reader, not to the one still pending.
    const week = await sendNewsletter({ db: tdb.db, env }, Date.now());
    expect(week.enqueued).toBeGreaterThanOrEqual(1);
    await deliver();
    const issue = (await smtp.waitFor(reader, 4))[3]!;
    expect(issue.subject).toBe(`GuildRank weekly picks, ${week.week}`);
    expect(smtp.to(waiting).map((m) => m.subject)).toEqual(['Confirm your GuildRank newsletter subscription']);
    const unsubscribe = oneClickUrl(issue);

    // The unsubscribe link: a GET shows one button and unsubscribes nobody.
    const unsubscribePage = await http('GET', unsubscribe, { origin: false });
    expect(unsubscribePage.status).toBe(200);
    expect((await unsubscribePage.text()).match(/<button/g)).toHaveLength(1);
    expect((await getSubscriberByEmail(tdb.db, reader))?.status).toBe('active');
    // RFC 8058: the mail client POSTs List-Unsubscribe=One-Click to the header's URL, no Origin, no cookie.
    const oneClick = await http('POST', unsubscribe, { form: { 'List-Unsubscribe': 'One-Click' }, origin: false });
    expect(oneClick.status).toBe(200);
    expect((await getSubscriberByEmail(tdb.db, reader))?.status).toBe('unsubscribed');

    // A second send in the same week writes and sends nothing.
    const again = await sendNewsletter({ db: tdb.db, env }, Date.now());
    expect(again).toMatchObject({ week: week.week, composed: false, enqueued: 0 });
    const before = smtp.mails.length;
    await deliver();
    expect(smtp.mails.length).toBe(before);
    expect(smtp.to(reader)).toHaveLength(4);

    // Signing up again after unsubscribing: pending, with a new confirmation.
    clock += 61_000;
    expect(await (await http('POST', '/api/newsletter', { json: { email: reader } })).json()).toMatchObject({
      subscriber: { status: 'pending' },
    });
    await deliver();
    expect((await smtp.waitFor(reader, 5))[4]!.subject).toBe('Confirm your GuildRank newsletter subscription');
  }, 60_000);

  it('a forged or altered token changes nothing', async () => {
    for (const path of ['/unsubscribe?token=abc.def', '/newsletter/confirm?token=abc.def']) {
      expect((await http('GET', path, { origin: false })).status).toBe(400);
      expect((await http('POST', path, { form: {}, origin: false })).status).toBe(400);
    }
  });
});

describe('the outbox when the mail server is down', () => {
  it('gives up on a server that accepts the connection but never greets, within the client’s timeout, to retry later', async () => {
    // Takes the connection and says nothing: no greeting ever comes.
    const silentSockets = new Set<Socket>();
    const silent = createNetServer((socket) => silentSockets.add(socket));
    await new Promise<void>((ok) => silent.listen(0, '127.0.0.1', () => ok()));
    const { port } = silent.address() as AddressInfo;
    const client = smtpMailClient(`smtp://127.0.0.1:${port}`, 300);
    const started = performance.now();
    try {
      const failure = await client
        .send({ from: FROM, to: 'silent@example.com', subject: 'Silent', text: 'Silent', html: '<p>Silent</p>' })
        .then(
          () => null,
          (err: unknown) => err,
        );
      expect(failure).toBeInstanceOf(MailSendError);
      expect((failure as MailSendError).permanent).toBe(false);
      // The 300 ms greeting timeout, not nodemailer's default of 30 s.
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      client.close?.();
      silent.close();
      for (const socket of silentSockets) socket.destroy();
    }
  });

  it('a mail the server took whose reply was lost goes again under the same Message-ID, the one recorded, so receivers can drop the second', async () => {
    const own = await startSmtpStandIn();
    try {
      const send = (at: number) => sendMail({ db: tdb.db, env, mail: smtpMailClient(own.url) }, at);
      // Other tests' mails may be due: send them first, so this run sends only this one.
      await deliver();
      await enqueueMail(tdb.db, {
        kind: 'contact_ack',
        dedupeKey: 'lost-reply:1',
        to: 'lost-reply@example.com',
        mail: { subject: 'Lost reply', text: 'Once', html: '<p>Once</p>' },
      });
      own.dropReplies = 1;
      const now = Date.now();
      expect(await send(now)).toMatchObject({ sent: 0, retried: 1 });
      // SMTP has no idempotency key: the retry sends it again, under the same Message-ID.
      expect(await send(now + 2 * 60_000)).toMatchObject({ sent: 1 });
      const copies = own.to('lost-reply@example.com');
      expect(copies).toHaveLength(2);
      const ids = copies.map((m) => m.headers['message-id']);
      expect(ids[0]).toMatch(/^<[\w.-]+@guildrank\.test>$/);
      expect(ids[1]).toBe(ids[0]);
      const row = (await listMails(tdb.db, { status: 'sent', perPage: 200 })).mails.find(
        (m) => m.dedupe_key === 'lost-reply:1',
      );
      expect(row?.message_id).toBe(ids[0]);
    } finally {
      await own.stop();
    }
  });

  it('keeps the mails when the server stops mid-run and delivers each exactly once after it comes back', async () => {
    const own = await startSmtpStandIn();
    try {
      const send = (at: number) => sendMail({ db: tdb.db, env, mail: smtpMailClient(own.url) }, at);
      const to = (i: number) => `outage-${i}@example.com`;
      // Other tests' mails may be due: send them first, so this run sends only the outage mails.
      await deliver();
      for (let i = 0; i < 5; i++) {
        await enqueueMail(tdb.db, {
          kind: 'contact_ack',
          dedupeKey: `outage-test:${i}`,
          to: to(i),
          mail: { subject: `Outage ${i}`, text: `Mail ${i}`, html: `<p>Mail ${i}</p>` },
        });
      }
      own.stopAfter = 2;
      const now = Date.now();
      const first = await send(now);
      expect(first.sent).toBe(2);
      expect(own.mails.map((m) => m.subject)).toEqual(['Outage 0', 'Outage 1']);
      const waiting = (await listMails(tdb.db, { status: 'pending' })).mails.filter((m) =>
        m.dedupe_key.startsWith('outage-test:'),
      );
      expect(waiting.map((m) => m.subject).sort()).toEqual(['Outage 2', 'Outage 3', 'Outage 4']);
      // Still down: nothing is lost, nothing is sent.
      expect((await send(now + 2 * 60_000)).sent).toBe(0);
      await own.start();
      // After the back-off: each of the rest arrives, once.
      let later = now + 3 * 60_000;
      for (let pass = 0; pass < 5 && own.mails.length < 5; pass++, later += 6 * 60_000) await send(later);
      expect(own.mails.map((m) => m.subject).sort()).toEqual([
        'Outage 0',
        'Outage 1',
        'Outage 2',
        'Outage 3',
        'Outage 4',
      ]);
      await send(later + 24 * HOUR);
      expect(own.mails).toHaveLength(5);
      const sent = (await listMails(tdb.db, { status: 'sent', perPage: 200 })).mails.filter((m) =>
        m.dedupe_key.startsWith('outage-test:'),
      );
      expect(sent).toHaveLength(5);
    } finally {
      await own.stop();
    }
  }, 60_000);
});

describe('the console’s mail screens', () => {
  it('the Outbox lists mails without their bodies and opens one whole; the issue preview counts confirmed subscribers; admins only', async () => {
    const to = 'console-outbox@example.com';
    await enqueueMail(tdb.db, {
      kind: 'contact_ack',
      dedupeKey: 'console-outbox:1',
      to,
      mail: { subject: 'Console outbox check', text: 'Text part', html: '<p>HTML part</p>' },
    });
    const list = await http('GET', '/api/admin/mail?kind=contact_ack&per_page=200', { session: admin });
    expect(list.status).toBe(200);
    const body = (await list.json()) as {
      mails: Record<string, unknown>[];
      counts: Record<string, number>;
      transport: string | null;
      from: string;
    };
    const row = body.mails.find((m) => m.to_address === to)!;
    expect(row).toMatchObject({ subject: 'Console outbox check', status: 'pending' });
    expect(row).not.toHaveProperty('html_body');
    expect(body.from).toBe(FROM);
    expect(body.counts.pending).toBeGreaterThanOrEqual(1);
    const one = (await (await http('GET', `/api/admin/mail/${row.id}`, { session: admin })).json()) as {
      mail: { html_body: string; text_body: string };
    };
    expect(one.mail).toMatchObject({ html_body: '<p>HTML part</p>', text_body: 'Text part' });
    expect((await http('GET', '/api/admin/mail')).status).toBe(401);

    const preview = (await (await http('GET', '/api/admin/newsletter/issue', { session: admin })).json()) as {
      week: string;
      recipients: number;
      mail: { subject: string; text: string };
    };
    expect(preview.mail.subject).toBe(`GuildRank weekly picks, ${preview.week}`);
    expect(preview.recipients).toBe(
      Number(
        (await tdb.client.execute("SELECT count(*) AS n FROM newsletter_subscribers WHERE status = 'active'")).rows[0]!
          .n,
      ),
    );
  });
});
