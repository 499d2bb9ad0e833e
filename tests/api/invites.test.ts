// GET /api/invites/:code, the submit form's live check, against a loopback Discord stand-in:
// each kind of answer Discord gives, a guild already listed or waiting, and Discord unreachable.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { INVITE_CHECKS } from '../../src/lib/invite-checks/budget';
import { type DiscordStandIn, type StandInInvite, startDiscordStandIn } from '../helpers/discord-stand-in';
import { createTestApp, ORIGIN, postJson, seedServer, type TestApp, validSubmission } from './api-harness';

const GUILD = '613425648685547541';
const PIXEL: StandInInvite = {
  guild: { id: GUILD, name: 'Pixel Raiders HQ', icon: 'a1b2c3d4e5f6' },
  memberCount: 48_210,
  onlineCount: 5_307,
};

let discord: DiscordStandIn;
let t: TestApp;
beforeAll(async () => {
  discord = await startDiscordStandIn();
});
afterAll(() => discord.close());
beforeEach(async () => {
  discord.invites.clear();
  discord.mode = { kind: 'normal' };
  discord.invites.set('pixelraid', PIXEL);
  t = await createTestApp({ DISCORD_API_BASE: discord.url });
});
afterEach(() => t.cleanup());

const lookup = (code: string, headers: Record<string, string> = {}) =>
  Promise.resolve(
    t.app.request(`/api/invites/${encodeURIComponent(code)}`, { headers: { origin: ORIGIN, ...headers } }),
  );

type Refusal = { error: { code: string; message: string; issues?: { path: string; message: string }[] } };

describe('GET /api/invites/:code', () => {
  it("answers Discord's name, icon URL, member and online counts for a working permanent invite", async () => {
    const res = await lookup('pixelraid');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      invite: {
        code: 'pixelraid',
        guild_id: GUILD,
        name: 'Pixel Raiders HQ',
        icon: 'a1b2c3d4e5f6',
        icon_url: `https://cdn.discordapp.com/icons/${GUILD}/a1b2c3d4e5f6.png?size=128`,
        member_count: 48_210,
        online_count: 5_307,
        // The member requirement (#32) the submit form checks the preview against.
        min_members: 50,
      },
    });
    expect(discord.requests.at(-1)?.path).toBe('/api/v10/invites/pixelraid?with_counts=true');
  });

  it('reads the code out of a pasted link', async () => {
    for (const link of [
      'https://discord.gg/pixelraid',
      'discord.com/invite/pixelraid',
      'https://discordapp.com/invite/pixelraid/',
    ]) {
      const res = await lookup(link);
      expect(res.status, link).toBe(200);
      expect(((await res.json()) as { invite: { name: string } }).invite.name).toBe('Pixel Raiders HQ');
    }
  });

  it('answers 400 on invite_link for an invite Discord does not know', async () => {
    const res = await lookup('gone123');
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as Refusal;
    expect(error.code).toBe('invite_unusable');
    expect(error.issues).toEqual([
      { path: 'invite_link', message: expect.stringMatching(/does not know this invite/) },
    ]);
  });

  it('answers 400 on invite_link for a temporary (expiring) invite, naming when it expires', async () => {
    discord.invites.set('temp', { ...PIXEL, expiresAt: '2030-01-02T03:04:05+00:00' });
    const res = await lookup('temp');
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as Refusal;
    expect(error.issues?.[0]).toEqual({
      path: 'invite_link',
      message: expect.stringMatching(/expires \(2030-01-02 03:04 UTC\).*never expire/),
    });
  });

  it('answers 400 on invite_link when the server has paused its invites', async () => {
    discord.invites.set('paused', { ...PIXEL, guild: { ...PIXEL.guild, features: ['COMMUNITY', 'INVITES_DISABLED'] } });
    const res = await lookup('paused');
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as Refusal;
    expect(error.issues?.[0]).toEqual({ path: 'invite_link', message: expect.stringMatching(/paused its invites/) });
  });

  it('answers 400 on invite_link for a group chat invite', async () => {
    discord.invites.set('groupdm', { ...PIXEL, type: 1 });
    const res = await lookup('groupdm');
    expect(res.status).toBe(400);
    expect(((await res.json()) as Refusal).error.issues?.[0]?.message).toMatch(/not a group chat/);
  });

  it('answers 400 for something that is not an invite, without asking Discord', async () => {
    const before = discord.requests.length;
    const res = await lookup('https://evil.example/x');
    expect(res.status).toBe(400);
    expect(((await res.json()) as Refusal).error.issues?.[0]?.path).toBe('invite_link');
    expect(discord.requests.length).toBe(before);
  });

  it('answers 409 for a guild that is already listed', async () => {
    await seedServer(t.db, { name: 'Pixel Raiders', guild_id: GUILD });
    const res = await lookup('pixelraid');
    expect(res.status).toBe(409);
    const { error } = (await res.json()) as Refusal;
    expect(error.code).toBe('already_listed');
    expect(error.message).toMatch(/already listed/);
    expect(error.issues?.[0]?.path).toBe('invite_link');
  });

  it('answers 409 for a guild waiting for review (pending or under review), not once it was rejected', async () => {
    const posted = await postJson(t.app, '/api/submissions', validSubmission());
    expect(posted.status).toBe(201);
    const { submission } = (await posted.json()) as { submission: { id: number } };
    const pending = await lookup('pixelraid');
    expect(pending.status).toBe(409);
    expect(((await pending.json()) as Refusal).error.code).toBe('already_submitted');

    await t.client.execute({
      sql: "UPDATE server_submissions SET status = 'under_review' WHERE id = ?",
      args: [submission.id],
    });
    expect((await lookup('pixelraid')).status).toBe(409);

    await t.client.execute({
      sql: "UPDATE server_submissions SET status = 'rejected' WHERE id = ?",
      args: [submission.id],
    });
    expect((await lookup('pixelraid')).status).toBe(200);
  });

  it('answers 503 with Retry-After when Discord cannot be asked: 5xx, its rate limit, a block page, no answer', async () => {
    // Each on a fresh app: a rate limit or a block page trips the breaker (the next test).
    const modes: [DiscordStandIn['mode'], string][] = [
      [{ kind: 'server_error', status: 502 }, '30'],
      [{ kind: 'rate_limited', retryAfter: 7.5 }, '8'],
      [{ kind: 'cloudflare_block' }, '3600'],
      [{ kind: 'ip_ban' }, '3600'],
    ];
    for (const [mode, retryAfter] of modes) {
      const app = await createTestApp({ DISCORD_API_BASE: discord.url });
      try {
        discord.mode = mode;
        const res = await app.app.request('/api/invites/pixelraid', { headers: { origin: ORIGIN } });
        expect(res.status, mode.kind).toBe(503);
        expect(res.headers.get('retry-after'), mode.kind).toBe(retryAfter);
        expect(((await res.json()) as Refusal).error.code, mode.kind).toBe('discord_unavailable');
      } finally {
        app.cleanup();
      }
    }
    const gone = await startDiscordStandIn();
    await gone.close();
    const offline = await createTestApp({ DISCORD_API_BASE: gone.url });
    try {
      const res = await offline.app.request('/api/invites/pixelraid', { headers: { origin: ORIGIN } });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('30');
    } finally {
      offline.cleanup();
    }
  });

  it('a 429 with retry_after 999999999 holds lookups for at most 5 minutes, and a later healthy answer is served', async () => {
    let now = Date.parse('2026-11-23T12:00:00.000Z');
    const app = await createTestApp({ DISCORD_API_BASE: discord.url }, { now: () => now });
    try {
      discord.mode = { kind: 'rate_limited', retryAfter: 999_999_999 };
      const ask = () => app.app.request('/api/invites/pixelraid', { headers: { origin: ORIGIN } });
      const limited = await ask();
      expect(limited.status).toBe(503);
      expect(Number(limited.headers.get('retry-after'))).toBe(300);
      const [state] = (await app.client.execute("SELECT blocked_until FROM job_state WHERE name = 'refresh'")).rows;
      expect(Date.parse(String(state?.blocked_until)) - now).toBe(5 * 60_000);
      // Held: Discord is not asked again meanwhile.
      discord.mode = { kind: 'normal' };
      const asked = discord.requests.length;
      now += 4 * 60_000;
      expect((await ask()).status).toBe(503);
      expect(discord.requests.length).toBe(asked);
      now += 60_000;
      expect((await ask()).status).toBe(200);
    } finally {
      app.cleanup();
    }
  });

  it("answers 503 without asking Discord while the refresh job's breaker says the site is blocked", async () => {
    const until = new Date(Date.now() + 3_600_000).toISOString();
    await t.client.execute({
      sql: "INSERT INTO job_state (name, blocked_until, block_reason, block_level) VALUES ('refresh', ?, 'cloudflare', 1)",
      args: [until],
    });
    const before = discord.requests.length;
    const res = await lookup('pixelraid');
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect(discord.requests.length).toBe(before);
  });

  it('a code asked again within its time costs no lookup, an unknown one included', async () => {
    expect((await lookup('pixelraid')).status).toBe(200);
    expect((await lookup('madeup123')).status).toBe(400);
    const asked = discord.requests.length;
    for (let i = 0; i < 3; i++) {
      expect((await lookup('pixelraid')).status).toBe(200);
      expect((await lookup('madeup123')).status).toBe(400);
    }
    expect(discord.requests.length).toBe(asked);
    // Not an invite at all: refused before any lookup.
    expect((await lookup('not an invite!')).status).toBe(400);
    expect(discord.requests.length).toBe(asked);
  });

  it('the 429 counts what it says: a working invite re-checked past its reuse time is another check', async () => {
    let clock = Date.parse('2026-03-02T10:00:00Z');
    const timed = await createTestApp({ DISCORD_API_BASE: discord.url }, { now: () => clock });
    discord.invites.set('pixelraid2', PIXEL);
    discord.invites.set('pixelraid3', PIXEL);
    try {
      const ask = (code: string) =>
        Promise.resolve(
          timed.app.request(`/api/invites/${code}`, { headers: { origin: ORIGIN, 'cf-connecting-ip': '203.0.113.9' } }),
        );
      const before = discord.requests.length;
      for (const code of ['pixelraid', 'pixelraid2', 'pixelraid3']) expect((await ask(code)).status).toBe(200);
      // Within its reuse time an answer is the stored one: no check of Discord, nothing counted.
      expect((await ask('pixelraid')).status).toBe(200);
      clock += INVITE_CHECKS.cacheMs.ok + 1_000;
      for (const code of ['pixelraid', 'pixelraid2']) expect((await ask(code)).status).toBe(200);
      // Three invites, five checks of Discord within the 10 minutes: the share is spent.
      expect(INVITE_CHECKS.perClient).toBe(5);
      expect(discord.requests.length - before).toBe(INVITE_CHECKS.perClient);
      expect((await ask('pixelraid')).status).toBe(200);
      const spent = await ask('pixelraid3');
      expect(spent.status).toBe(429);
      const { error } = (await spent.json()) as Refusal;
      expect(error.code).toBe('invite_checks_spent');
      expect(error.message).toBe(
        'You have made 5 invite checks with Discord in 10 minutes (a working invite checked again after 5 minutes, or on sending the form, counts again). Please wait before checking another.',
      );
      expect(discord.requests.length - before).toBe(INVITE_CHECKS.perClient);
    } finally {
      timed.cleanup();
    }
  });

  it(`one address gets ${INVITE_CHECKS.perClient} lookups per 10 minutes (429 after), others keep theirs`, async () => {
    const ask = (code: string, ip: string) => lookup(code, { 'cf-connecting-ip': ip });
    for (let i = 0; i < INVITE_CHECKS.perClient; i++)
      expect((await ask(`madeup${i}`, '203.0.113.1')).status, `lookup ${i + 1}`).toBe(400);
    const asked = discord.requests.length;
    const spent = await ask('madeupx', '203.0.113.1');
    expect(spent.status).toBe(429);
    expect(((await spent.json()) as Refusal).error.code).toBe('invite_checks_spent');
    expect(Number(spent.headers.get('retry-after'))).toBeGreaterThan(500);
    expect(discord.requests.length).toBe(asked);
    // A code already answered still costs nothing, and another address is answered.
    expect((await ask('madeup0', '203.0.113.1')).status).toBe(400);
    expect((await ask('pixelraid', '203.0.113.2')).status).toBe(200);
  });

  it("made-up invites from many addresses spend only the site's open share: the reserve answers a real owner's first check", async () => {
    let now = Date.parse('2026-11-23T12:00:00.000Z');
    const app = await createTestApp({ DISCORD_API_BASE: discord.url }, { now: () => now });
    try {
      const open = INVITE_CHECKS.perWindow - INVITE_CHECKS.reserve;
      // Strangers with a lookup in hand already (not their first) spend the open share: 6 addresses × 5.
      let made = 0;
      for (let ip = 0; made < open; ip++)
        for (let k = 0; k < INVITE_CHECKS.perClient && made < open; k++, made++) {
          const res = await app.app.request(`/api/invites/fake${made}x`, {
            headers: { origin: ORIGIN, 'cf-connecting-ip': `203.0.113.${ip}` },
          });
          expect([400, 503], `lookup ${made + 1}`).toContain(res.status);
          now += 1000;
        }
      // A returning client past its first lookup: the open share is spent.
      const returning = await app.app.request('/api/invites/fakeagain', {
        headers: { origin: ORIGIN, 'cf-connecting-ip': '203.0.113.0' },
      });
      expect([429, 503]).toContain(returning.status);
      // A new client's first check uses the reserve.
      const real = await app.app.request('/api/invites/pixelraid', {
        headers: { origin: ORIGIN, 'cf-connecting-ip': '198.51.100.7' },
      });
      expect(real.status).toBe(200);
    } finally {
      app.cleanup();
    }
  });

  it('20 submissions with made-up invites from 4 addresses leave a real submission from a fifth answered 201', async () => {
    const app = await createTestApp({ DISCORD_API_BASE: discord.url });
    try {
      for (let i = 0; i < 20; i++) {
        const res = await postJson(
          app.app,
          '/api/submissions',
          validSubmission({ invite_link: `https://discord.gg/madeup${i}` }),
          { 'cf-connecting-ip': `203.0.113.${i % 4}` },
        );
        expect([400, 429, 503], `submission ${i + 1}`).toContain(res.status);
      }
      const real = await postJson(app.app, '/api/submissions', validSubmission(), {
        'cf-connecting-ip': '198.51.100.5',
      });
      expect(real.status).toBe(201);
      const rows = await app.client.execute('SELECT count(*) AS n FROM server_submissions');
      expect(Number(rows.rows[0]?.n)).toBe(1);
    } finally {
      app.cleanup();
    }
  });

  it('answers 429 with Retry-After after 20 lookups from one address in a minute', async () => {
    for (let i = 0; i < 20; i++) expect((await lookup('pixelraid')).status).toBe(200);
    const res = await lookup('pixelraid');
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await lookup('pixelraid', { 'cf-connecting-ip': '203.0.113.9' })).status).toBe(200);
  });
});
