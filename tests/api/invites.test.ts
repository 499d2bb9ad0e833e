// GET /api/invites/:code, the submit form's live check, against a loopback Discord stand-in:
// each kind of answer Discord gives, a guild already listed or waiting, and Discord unreachable.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHECK_BUDGETS } from '../../functions/_app/lib/invite-check';
import { BUDGET } from '../../src/lib/invite-checks/budget';
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
    const modes: [DiscordStandIn['mode'], string][] = [
      [{ kind: 'server_error', status: 502 }, '30'],
      [{ kind: 'rate_limited', retryAfter: 7.5 }, '8'],
      [{ kind: 'cloudflare_block' }, '30'],
      [{ kind: 'ip_ban' }, '30'],
    ];
    for (const [mode, retryAfter] of modes) {
      discord.mode = mode;
      const res = await lookup('pixelraid');
      expect(res.status, mode.kind).toBe(503);
      expect(res.headers.get('retry-after'), mode.kind).toBe(retryAfter);
      expect(((await res.json()) as Refusal).error.code, mode.kind).toBe('discord_unavailable');
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

  it("spends at most 25 Discord lookups per 10 minutes on live checks for all addresses together, then 503 until the window closes; a submission's check keeps its own 15", async () => {
    let now = Date.parse('2026-11-23T12:00:00.000Z');
    const app = await createTestApp({ DISCORD_API_BASE: discord.url }, { now: () => now });
    try {
      const ask = (i: number) =>
        app.app.request('/api/invites/pixelraid', {
          headers: { origin: ORIGIN, 'cf-connecting-ip': `203.0.113.${i}` },
        });
      expect(CHECK_BUDGETS.live.perWindow + CHECK_BUDGETS.submit.perWindow).toBe(BUDGET.submissionsPerWindow);
      for (let i = 0; i < CHECK_BUDGETS.live.perWindow; i++) {
        expect((await ask(i)).status, `lookup ${i + 1}`).toBe(200);
        now += 1000;
      }
      const before = discord.requests.length;
      const spent = await ask(201);
      expect(spent.status).toBe(503);
      expect(((await spent.json()) as Refusal).error.code).toBe('discord_unavailable');
      // The window closes 10 minutes after its last lookup (1 s before this one).
      expect(Number(spent.headers.get('retry-after'))).toBe(599);
      expect(discord.requests.length).toBe(before);

      // A real submission is still checked: its share is its own.
      const posted = await postJson(app.app, '/api/submissions', validSubmission(), {
        'cf-connecting-ip': '198.51.100.7',
      });
      expect(posted.status).toBe(201);
      expect(discord.requests.length).toBe(before + 1);

      now += 599_000;
      discord.invites.set('other', { ...PIXEL, guild: { ...PIXEL.guild, id: '713425648685547541' } });
      expect((await app.app.request('/api/invites/other', { headers: { origin: ORIGIN } })).status).toBe(200);
    } finally {
      app.cleanup();
    }
  });

  it("a submission's checks stop at 15 per 10 minutes, answering 503 and storing nothing", async () => {
    const app = await createTestApp({ DISCORD_API_BASE: discord.url });
    try {
      for (let i = 0; i < CHECK_BUDGETS.submit.perWindow; i++) {
        const code = `guild${i}`;
        discord.invites.set(code, { ...PIXEL, guild: { ...PIXEL.guild, id: `71342564868554${String(1000 + i)}` } });
        const res = await postJson(
          app.app,
          '/api/submissions',
          validSubmission({ invite_link: `https://discord.gg/${code}` }),
          {
            'cf-connecting-ip': `198.51.100.${i}`,
          },
        );
        expect(res.status, code).toBe(201);
      }
      const res = await postJson(app.app, '/api/submissions', validSubmission(), {
        'cf-connecting-ip': '198.51.100.99',
      });
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      const rows = await app.client.execute('SELECT count(*) AS n FROM server_submissions');
      expect(Number(rows.rows[0]?.n)).toBe(CHECK_BUDGETS.submit.perWindow);
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
