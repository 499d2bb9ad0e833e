import { describe, expect, it } from 'vitest';
import { classifyInviteAnswer, type InviteAnswer, isDefinitive, noAnswer } from './classify';

const GUILD = '613425648685547541';
const OTHER_GUILD = '1091827364554637281';
const JSON_TYPE = { 'content-type': 'application/json' };

/** A 200 answer as Discord documents it, plus undocumented fields that must be ignored. */
function inviteBody(overrides: Record<string, unknown> = {}, guild: Record<string, unknown> = {}) {
  return JSON.stringify({
    type: 0,
    code: 'abc123',
    expires_at: null,
    guild: {
      id: GUILD,
      name: 'Chart Room',
      splash: null,
      banner: 'b4nn3r',
      description: 'Daily setups',
      icon: 'a_9f8e7d6c5b4a39281706f5e4d3c2b1a0',
      features: ['COMMUNITY', 'NEWS'],
      verification_level: 2,
      vanity_url_code: 'chartroom',
      nsfw_level: 0,
      nsfw: false,
      premium_subscription_count: 14,
      ...guild,
    },
    guild_id: GUILD,
    channel: { id: '613425648685547542', type: 0, name: 'welcome' },
    approximate_member_count: 12_345,
    approximate_presence_count: 1_234,
    profile: { id: GUILD, name: 'Not this', member_count: 99_999, online_count: 9_999 },
    ...overrides,
  });
}

const ok200 = (body: string, expectedGuildId?: string) => ({ status: 200, headers: JSON_TYPE, body, expectedGuildId });
const error = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: { ...JSON_TYPE, ...headers },
  body: JSON.stringify(body),
});
const userLimitHeaders = {
  'retry-after': '2',
  'x-ratelimit-limit': '5',
  'x-ratelimit-remaining': '0',
  'x-ratelimit-reset-after': '1.5',
  'x-ratelimit-bucket': 'abcd',
  'x-ratelimit-scope': 'user',
};
const CLOUDFLARE_1015 =
  '<!DOCTYPE html><html><head><title>Access denied | discord.com used Cloudflare to restrict access</title></head>' +
  '<body><h1>Error 1015</h1><h2>You are being rate limited</h2></body></html>';
const IP_BAN = {
  code: 0,
  message:
    'You are being blocked from accessing our API temporarily due to exceeding our rate limits frequently. Please read our docs at https://discord.com/developers/docs/topics/rate-limits to prevent this moving forward.',
};

describe('classifyInviteAnswer on a 200', () => {
  it('reads the documented fields of a live invite, and counts from approximate_*, not profile', () => {
    expect(classifyInviteAnswer(ok200(inviteBody(), GUILD))).toEqual({
      kind: 'ok',
      invite: {
        code: 'abc123',
        guildId: GUILD,
        name: 'Chart Room',
        icon: 'a_9f8e7d6c5b4a39281706f5e4d3c2b1a0',
        banner: 'b4nn3r',
        splash: null,
        description: 'Daily setups',
        features: ['COMMUNITY', 'NEWS'],
        vanityUrlCode: 'chartroom',
        verificationLevel: 2,
        nsfwLevel: 0,
        boostCount: 14,
        memberCount: 12_345,
        onlineCount: 1_234,
        expiresAt: null,
      },
      rateLimit: null,
    });
  });

  it('takes any guild on a first check (no expected guild)', () => {
    expect(classifyInviteAnswer(ok200(inviteBody())).kind).toBe('ok');
  });

  it('is ok, not blocked, when a count is 1015', () => {
    const answer = classifyInviteAnswer(
      ok200(inviteBody({ approximate_member_count: 1015, approximate_presence_count: 1015 })),
    );
    expect(answer.kind).toBe('ok');
    expect(answer.kind === 'ok' && [answer.invite.memberCount, answer.invite.onlineCount]).toEqual([1015, 1015]);
  });

  it('has null counts when Discord sent none (with_counts missing)', () => {
    const body = JSON.parse(inviteBody());
    delete body.approximate_member_count;
    delete body.approximate_presence_count;
    const answer = classifyInviteAnswer(ok200(JSON.stringify(body)));
    expect(answer.kind === 'ok' && [answer.invite.memberCount, answer.invite.onlineCount]).toEqual([null, null]);
  });

  it('is paused when the guild has INVITES_DISABLED, even on a temporary invite', () => {
    const features = { features: ['COMMUNITY', 'INVITES_DISABLED'] };
    expect(classifyInviteAnswer(ok200(inviteBody({}, features))).kind).toBe('paused');
    expect(classifyInviteAnswer(ok200(inviteBody({ expires_at: '2026-11-25T14:00:00+00:00' }, features))).kind).toBe(
      'paused',
    );
  });

  it('is expiring when the invite has an expiry, given in ISO-8601 UTC', () => {
    const answer = classifyInviteAnswer(ok200(inviteBody({ expires_at: '2026-11-25T14:00:00.123000+00:00' }), GUILD));
    expect(answer.kind).toBe('expiring');
    expect(answer.kind === 'expiring' && answer.invite.expiresAt).toBe('2026-11-25T14:00:00.123Z');
  });

  it('is wrong_guild when the code now opens another guild, naming it', () => {
    expect(classifyInviteAnswer(ok200(inviteBody({}, { id: OTHER_GUILD, name: 'Free Nitro' }), GUILD))).toEqual({
      kind: 'wrong_guild',
      expectedGuildId: GUILD,
      guildId: OTHER_GUILD,
      name: 'Free Nitro',
      rateLimit: null,
    });
  });

  it('is wrong_guild for an invite to no guild (a group DM)', () => {
    const body = JSON.stringify({ type: 1, code: 'abc123', expires_at: null, channel: { id: '1', type: 3 } });
    expect(classifyInviteAnswer(ok200(body, GUILD))).toMatchObject({ kind: 'wrong_guild', guildId: null });
    expect(classifyInviteAnswer(ok200(body))).toMatchObject({ kind: 'wrong_guild', guildId: null });
  });

  it('degrades an odd optional field to null instead of failing the check', () => {
    const answer = classifyInviteAnswer(ok200(inviteBody({}, { icon: 42, features: 'COMMUNITY', nsfw_level: 'x' })));
    expect(answer.kind).toBe('ok');
    expect(answer.kind === 'ok' && [answer.invite.icon, answer.invite.features, answer.invite.nsfwLevel]).toEqual([
      null,
      [],
      null,
    ]);
  });

  it.each([
    ['a body that is not JSON', { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>1015</html>' }],
    ['JSON sent as text/html', { status: 200, headers: { 'content-type': 'text/html' }, body: inviteBody() }],
    ['broken JSON', { status: 200, headers: JSON_TYPE, body: '{"type":0,' }],
    ['a guild without an id', ok200(inviteBody({}, { id: undefined }))],
    ['a guild id that is no snowflake', ok200(inviteBody({}, { id: 'abc' }))],
    ['an expiry that is no date', ok200(inviteBody({ expires_at: 'tomorrow' }))],
  ])('is transient (unparseable) for %s', (_, response) => {
    expect(classifyInviteAnswer(response)).toMatchObject({ kind: 'transient', reason: 'unparseable', status: 200 });
  });
});

describe('classifyInviteAnswer on an error', () => {
  it.each([10006, 10004])('is unknown_invite on a 404 with code %i', (code) => {
    expect(classifyInviteAnswer(error(404, { message: 'Unknown Invite', code }))).toEqual({
      kind: 'unknown_invite',
      code,
      rateLimit: null,
    });
  });

  it.each([
    ['a wrong route (code 0)', error(404, { message: '404: Not Found', code: 0 })],
    ['another code', error(404, { message: 'Unknown Channel', code: 10003 })],
    ['an HTML 404', { status: 404, headers: { 'content-type': 'text/html' }, body: 'Unknown Invite 10006' }],
  ])('never reads a 404 with %s as a dead invite', (_, response) => {
    expect(classifyInviteAnswer(response)).toMatchObject({ kind: 'transient', reason: 'unexpected_status' });
  });

  it('is rate_limited on a 429 with retry_after, waiting the longer of body and header', () => {
    const body = { message: 'You are being rate limited.', retry_after: 1.5, global: false };
    expect(classifyInviteAnswer(error(429, body, userLimitHeaders))).toEqual({
      kind: 'rate_limited',
      retryAfterMs: 2000,
      global: false,
      scope: 'user',
      rateLimit: { limit: 5, remaining: 0, resetAfterMs: 1500, bucket: 'abcd' },
    });
    const longer = { ...body, retry_after: 3.25 };
    expect(classifyInviteAnswer(error(429, longer, { ...userLimitHeaders, 'retry-after': '3' }))).toMatchObject({
      retryAfterMs: 3250,
    });
  });

  it('reads a global and a shared 429', () => {
    const global = error(
      429,
      { message: 'You are being rate limited.', retry_after: 0.8, global: true },
      { ...userLimitHeaders, 'retry-after': '1', 'x-ratelimit-global': 'true', 'x-ratelimit-scope': 'global' },
    );
    expect(classifyInviteAnswer(global)).toMatchObject({ kind: 'rate_limited', global: true, scope: 'global' });
    const shared = error(
      429,
      { message: 'You are being rate limited.', retry_after: 4, global: false },
      { ...userLimitHeaders, 'retry-after': '4', 'x-ratelimit-scope': 'shared' },
    );
    expect(classifyInviteAnswer(shared)).toMatchObject({ kind: 'rate_limited', global: false, scope: 'shared' });
  });

  it.each([429, 403])("is blocked (cloudflare) on Cloudflare's HTML page with status %i", (status) => {
    const response = { status, headers: { 'content-type': 'text/html; charset=UTF-8' }, body: CLOUDFLARE_1015 };
    expect(classifyInviteAnswer(response)).toEqual({
      kind: 'blocked',
      source: 'cloudflare',
      status,
      retryAfterMs: null,
      rateLimit: null,
    });
  });

  it('is blocked (cloudflare) on a plain-text 1015, keeping its Retry-After', () => {
    const response = {
      status: 429,
      headers: { 'content-type': 'text/plain', 'retry-after': '600' },
      body: 'error code: 1015',
    };
    expect(classifyInviteAnswer(response)).toMatchObject({
      kind: 'blocked',
      source: 'cloudflare',
      retryAfterMs: 600_000,
    });
  });

  it.each([429, 403])("is blocked (ip_ban) on Discord's JSON IP ban with status %i", (status) => {
    expect(classifyInviteAnswer(error(status, IP_BAN))).toEqual({
      kind: 'blocked',
      source: 'ip_ban',
      status,
      retryAfterMs: null,
      rateLimit: null,
    });
  });

  it('is blocked (ip_ban) on a JSON 429 without retry_after', () => {
    const response = error(429, { message: 'You are being rate limited.', code: 0 }, { 'retry-after': '3600' });
    expect(classifyInviteAnswer(response)).toMatchObject({
      kind: 'blocked',
      source: 'ip_ban',
      retryAfterMs: 3_600_000,
    });
  });

  it('is auth_error on a JSON 401 or a JSON 403 that is no ban', () => {
    expect(classifyInviteAnswer(error(401, { message: '401: Unauthorized', code: 0 }))).toEqual({
      kind: 'auth_error',
      status: 401,
      code: 0,
      message: '401: Unauthorized',
      rateLimit: null,
    });
    expect(classifyInviteAnswer(error(403, { message: 'Missing Access', code: 50001 }))).toMatchObject({
      kind: 'auth_error',
      status: 403,
      code: 50001,
    });
  });

  it('is transient on a 401 that is not JSON', () => {
    const response = { status: 401, headers: { 'content-type': 'text/html' }, body: '<html>401</html>' };
    expect(classifyInviteAnswer(response)).toMatchObject({ kind: 'transient', reason: 'unexpected_status' });
  });

  it.each([500, 502, 503, 504])('is transient on %i', (status) => {
    expect(classifyInviteAnswer({ status, headers: {}, body: '' })).toEqual({
      kind: 'transient',
      reason: 'server_error',
      status,
      rateLimit: null,
    });
  });

  it.each([301, 400, 418])('is transient on an unexpected %i', (status) => {
    expect(classifyInviteAnswer(error(status, { message: 'x', code: 50035 }))).toMatchObject({
      kind: 'transient',
      reason: 'unexpected_status',
    });
  });

  it('reads the rate-limit headers of any answer, for pacing', () => {
    const headers = new Headers({
      ...JSON_TYPE,
      'x-ratelimit-limit': '50',
      'x-ratelimit-remaining': '49',
      'x-ratelimit-reset-after': '0.25',
    });
    expect(classifyInviteAnswer({ status: 200, headers, body: inviteBody() }).rateLimit).toEqual({
      limit: 50,
      remaining: 49,
      resetAfterMs: 250,
      bucket: null,
    });
  });
});

describe('isDefinitive', () => {
  const kinds = (answers: InviteAnswer[]) => answers.map((a) => [a.kind, isDefinitive(a)]);

  it('says which answers are about the invite and which must leave a listing as it is', () => {
    expect(
      kinds([
        classifyInviteAnswer(ok200(inviteBody())),
        classifyInviteAnswer(ok200(inviteBody({}, { features: ['INVITES_DISABLED'] }))),
        classifyInviteAnswer(ok200(inviteBody({ expires_at: '2026-11-25T14:00:00+00:00' }))),
        classifyInviteAnswer(error(404, { message: 'Unknown Invite', code: 10006 })),
        classifyInviteAnswer(ok200(inviteBody(), OTHER_GUILD)),
        classifyInviteAnswer(error(429, { message: 'x', retry_after: 1, global: false }, userLimitHeaders)),
        classifyInviteAnswer(error(429, IP_BAN)),
        classifyInviteAnswer(error(401, { message: '401: Unauthorized', code: 0 })),
        classifyInviteAnswer({ status: 500, headers: {}, body: '' }),
        noAnswer('timeout'),
        noAnswer('network'),
      ]),
    ).toEqual([
      ['ok', true],
      ['paused', true],
      ['expiring', true],
      ['unknown_invite', true],
      ['wrong_guild', true],
      ['rate_limited', false],
      ['blocked', false],
      ['auth_error', false],
      ['transient', false],
      ['transient', false],
      ['transient', false],
    ]);
  });
});
