import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DiscordClientOptions, discordClient } from '../../functions/_app/clients/discord';
import { type DiscordStandIn, type StandInInvite, startDiscordStandIn } from '../helpers/discord-stand-in';

const GUILD = '613425648685547541';
const OTHER_GUILD = '1091827364554637281';
const SITE = 'https://guildrank.example';

const chartRoom = (): StandInInvite => ({
  guild: { id: GUILD, name: 'Chart Room', icon: 'a_9f8e7d6c5b4a39281706f5e4d3c2b1a0', features: ['COMMUNITY'] },
  memberCount: 12_345,
  onlineCount: 1_234,
});

let standIn: DiscordStandIn;
const client = (options: Partial<DiscordClientOptions> = {}) =>
  discordClient({ baseUrl: standIn.url, siteUrl: SITE, ...options });

beforeEach(async () => {
  standIn = await startDiscordStandIn({ botToken: 'right-token' });
});
afterEach(async () => {
  await standIn.close();
});

describe('discordClient.lookupInvite', () => {
  it('asks GET {base}/invites/{code}?with_counts=true and answers ok with the guild and its counts', async () => {
    standIn.invites.set('abc123', chartRoom());
    const answer = await client().lookupInvite('abc123', GUILD);
    expect(answer).toMatchObject({
      kind: 'ok',
      invite: {
        code: 'abc123',
        guildId: GUILD,
        name: 'Chart Room',
        icon: 'a_9f8e7d6c5b4a39281706f5e4d3c2b1a0',
        features: ['COMMUNITY'],
        memberCount: 12_345,
        onlineCount: 1_234,
        expiresAt: null,
      },
    });
    expect(standIn.requests.map((r) => [r.method, r.path])).toEqual([
      ['GET', '/api/v10/invites/abc123?with_counts=true'],
    ]);
  });

  it('takes a base URL with a trailing slash', async () => {
    standIn.invites.set('abc123', chartRoom());
    expect((await client({ baseUrl: `${standIn.url}/` }).lookupInvite('abc123')).kind).toBe('ok');
    expect(standIn.requests[0]?.path).toBe('/api/v10/invites/abc123?with_counts=true');
  });

  it("names the site in Discord's User-Agent form", async () => {
    await client().lookupInvite('abc123');
    expect(standIn.requests[0]?.headers['user-agent']).toMatch(
      /^DiscordBot \(https:\/\/guildrank\.example, \d+(\.\d+)*\)$/,
    );
  });

  it('sends Authorization: Bot <token> only when a token is set', async () => {
    standIn.invites.set('abc123', chartRoom());
    expect((await client({ botToken: 'right-token' }).lookupInvite('abc123')).kind).toBe('ok');
    expect((await client().lookupInvite('abc123')).kind).toBe('ok');
    expect((await client({ botToken: '' }).lookupInvite('abc123')).kind).toBe('ok');
    expect(standIn.requests.map((r) => r.headers.authorization)).toEqual(['Bot right-token', undefined, undefined]);
  });

  it('reads the rate-limit headers Discord sends an authorised request', async () => {
    standIn.invites.set('abc123', chartRoom());
    expect((await client({ botToken: 'right-token' }).lookupInvite('abc123')).rateLimit).toEqual({
      limit: 50,
      remaining: 49,
      resetAfterMs: 1000,
      bucket: 'stand-in-invites',
    });
  });

  it('is auth_error when Discord refuses the token', async () => {
    standIn.invites.set('abc123', chartRoom());
    expect(await client({ botToken: 'revoked-token' }).lookupInvite('abc123')).toMatchObject({
      kind: 'auth_error',
      status: 401,
    });
  });

  it('is ok, not blocked, when the member count is 1015', async () => {
    standIn.invites.set('abc123', { ...chartRoom(), memberCount: 1015, onlineCount: 1015 });
    expect(await client().lookupInvite('abc123')).toMatchObject({
      kind: 'ok',
      invite: { memberCount: 1015, onlineCount: 1015 },
    });
  });

  it('is unknown_invite (10006) for a code Discord does not know, and once the invite is deleted', async () => {
    expect(await client().lookupInvite('nosuchcode')).toMatchObject({ kind: 'unknown_invite', code: 10006 });
    standIn.invites.set('abc123', chartRoom());
    expect((await client().lookupInvite('abc123', GUILD)).kind).toBe('ok');
    standIn.invites.delete('abc123');
    expect(await client().lookupInvite('abc123', GUILD)).toMatchObject({ kind: 'unknown_invite', code: 10006 });
  });

  it('is paused while the guild has INVITES_DISABLED, and ok again after', async () => {
    const invite = chartRoom();
    standIn.invites.set('abc123', invite);
    invite.guild.features = ['COMMUNITY', 'INVITES_DISABLED'];
    expect((await client().lookupInvite('abc123', GUILD)).kind).toBe('paused');
    invite.guild.features = ['COMMUNITY'];
    expect((await client().lookupInvite('abc123', GUILD)).kind).toBe('ok');
  });

  it('is expiring for a temporary invite, with its expiry', async () => {
    standIn.invites.set('temp42', { ...chartRoom(), expiresAt: '2026-11-25T14:35:00+00:00' });
    expect(await client().lookupInvite('temp42', GUILD)).toMatchObject({
      kind: 'expiring',
      invite: { expiresAt: '2026-11-25T14:35:00.000Z' },
    });
  });

  it('is wrong_guild when the code now opens another guild', async () => {
    const invite = chartRoom();
    standIn.invites.set('chartroom', invite);
    expect((await client().lookupInvite('chartroom', GUILD)).kind).toBe('ok');
    invite.guild = { id: OTHER_GUILD, name: 'Free Nitro Giveaway' };
    expect(await client().lookupInvite('chartroom', GUILD)).toMatchObject({
      kind: 'wrong_guild',
      expectedGuildId: GUILD,
      guildId: OTHER_GUILD,
      name: 'Free Nitro Giveaway',
    });
  });

  it('is rate_limited on a 429, with the wait, scope and global flag', async () => {
    standIn.mode = { kind: 'rate_limited', retryAfter: 1.5 };
    expect(await client().lookupInvite('abc123')).toMatchObject({
      kind: 'rate_limited',
      retryAfterMs: 2000,
      global: false,
      scope: 'user',
    });
    standIn.mode = { kind: 'rate_limited', retryAfter: 0.4, global: true };
    expect(await client().lookupInvite('abc123')).toMatchObject({
      kind: 'rate_limited',
      retryAfterMs: 1000,
      global: true,
      scope: 'global',
    });
  });

  it.each([429, 403] as const)("is blocked (cloudflare) on Cloudflare's 1015 page with status %i", async (status) => {
    standIn.mode = { kind: 'cloudflare_block', status };
    expect(await client().lookupInvite('abc123')).toMatchObject({ kind: 'blocked', source: 'cloudflare', status });
  });

  it("is blocked (ip_ban) on Discord's JSON IP ban", async () => {
    standIn.mode = { kind: 'ip_ban' };
    expect(await client().lookupInvite('abc123')).toMatchObject({ kind: 'blocked', source: 'ip_ban', status: 429 });
  });

  it('is transient on a 500', async () => {
    standIn.mode = { kind: 'server_error' };
    expect(await client().lookupInvite('abc123')).toEqual({
      kind: 'transient',
      reason: 'server_error',
      status: 500,
      rateLimit: null,
    });
  });

  it('answers a slow Discord within the time allowed', async () => {
    standIn.invites.set('abc123', chartRoom());
    standIn.delayMs = 50;
    expect((await client({ timeoutMs: 5000 }).lookupInvite('abc123')).kind).toBe('ok');
  });

  it('is transient (timeout) when the answer comes after the time allowed', async () => {
    standIn.invites.set('abc123', chartRoom());
    // Longer than the test's own time limit: only the client's timeout can end this test in time.
    standIn.delayMs = 60_000;
    expect(await client({ timeoutMs: 100 }).lookupInvite('abc123')).toEqual({
      kind: 'transient',
      reason: 'timeout',
      status: null,
      rateLimit: null,
    });
  });

  it('is transient (network) when nothing listens on the port', async () => {
    const closed = await startDiscordStandIn();
    await closed.close();
    expect(await client({ baseUrl: closed.url }).lookupInvite('abc123')).toEqual({
      kind: 'transient',
      reason: 'network',
      status: null,
      rateLimit: null,
    });
  });

  it("never reads a wrong base URL's 404 as a dead invite", async () => {
    standIn.invites.set('abc123', chartRoom());
    const base = standIn.url.replace(/\/v10$/, '');
    expect(await client({ baseUrl: base }).lookupInvite('abc123', GUILD)).toMatchObject({
      kind: 'transient',
      reason: 'unexpected_status',
      status: 404,
    });
  });

  it('refuses a link or anything else that is not a bare code, asking nothing', async () => {
    await expect(client().lookupInvite('discord.gg/abc123')).rejects.toThrow(TypeError);
    await expect(client().lookupInvite('../guilds/1')).rejects.toThrow(TypeError);
    expect(standIn.requests).toEqual([]);
  });
});
