import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import {
  countOwnerSessions,
  getOwnerByDiscordId,
  OWNER_SESSION_ABSOLUTE_MS,
  OWNER_SESSION_IDLE_MS,
} from '../../db/queries/owners';
import { serverClaims, serverSubmissions } from '../../db/schema';
import { seedServer, validSubmission } from './api-harness';
import { cookiesOf, createOwnerHarness, guild, PERMISSIONS, SITE } from './owner-harness';

let h: Awaited<ReturnType<typeof createOwnerHarness>> | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const claimsOf = async (ownerDiscordId: string) => {
  const owner = await getOwnerByDiscordId(h!.db, ownerDiscordId);
  if (!owner) return [];
  const rows = await h!.db.select().from(serverClaims).where(eq(serverClaims.owner_id, owner.id));
  return rows.map((r) => ({ server_id: r.server_id, proof: r.proof })).sort((a, b) => a.server_id - b.server_id);
};

describe('owner sign-in with Discord (authorization code, PKCE, state)', () => {
  it('sends the browser to Discord with a state, an S256 challenge and the identify guilds scopes, and signs in on a matching callback', async () => {
    h = await createOwnerHarness();
    const { res, authorize, stateCookie } = await h.start();
    expect(res.status).toBe(302);
    expect(authorize.origin + authorize.pathname).toBe(`${h.discord.origin}/oauth2/authorize`);
    const q = authorize.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('scope')).toBe('identify guilds');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(q.get('redirect_uri')).toBe(`${SITE}/api/account/callback`);
    // The state and verifier wait in a short-lived, signed, HttpOnly cookie; Lax, for Discord's redirect back.
    expect(stateCookie?.raw).toMatch(/HttpOnly/);
    expect(stateCookie?.raw).toMatch(/SameSite=Lax/);
    expect(stateCookie?.raw).toMatch(/Max-Age=600/);

    const back = await h.authorize(authorize);
    expect(back.searchParams.get('state')).toBe(q.get('state'));
    const done = await h.callback(back, stateCookie?.pair);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/account');

    // The token request carried the verifier whose S256 is the challenge, and the token was revoked after use.
    const [token] = h.discord.oauth.tokenRequests;
    const verifier = token!.get('code_verifier')!;
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(q.get('code_challenge'));
    expect(h.discord.oauth.liveTokens.size).toBe(0);
    expect(h.discord.oauth.revokedTokens).toHaveLength(1);

    const session = cookiesOf(done).get('gr_owner');
    expect(session?.raw).toMatch(/HttpOnly/);
    expect(session?.raw).toMatch(/SameSite=Strict/);
    expect(session?.raw).toMatch(/Path=\//);
    const me = await h.app.request(`${SITE}/api/account/me`, { headers: { cookie: session!.pair } });
    expect(await me.json()).toMatchObject({
      configured: true,
      owner: { username: 'stand-in-owner', discord_user_id: h.discord.oauth.user.id },
    });
    // Discord's token is never stored: the owner row holds the user's id, name and avatar only.
    const owner = await getOwnerByDiscordId(h.db, h.discord.oauth.user.id);
    expect(Object.keys(owner!).sort()).toEqual(
      [
        'avatar',
        'created_at',
        'discord_user_id',
        'global_name',
        'id',
        'last_login_at',
        'managed_guilds',
        'username',
        // The owner's own Discord webhook for notices (#32), set on /account, never from sign-in.
        'webhook_disabled_at',
        'webhook_url',
      ].sort(),
    );
  });

  it('a wrong state is refused: no token request, no session', async () => {
    h = await createOwnerHarness();
    const { authorize, stateCookie } = await h.start();
    const back = await h.authorize(authorize);
    back.searchParams.set('state', 'someone-elses-state-value-000000000');
    const res = await h.callback(back, stateCookie?.pair);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/account?error=state');
    expect(cookiesOf(res).has('gr_owner')).toBe(false);
    expect(h.discord.oauth.tokenRequests).toHaveLength(0);
  });

  it('a callback without the sign-in cookie (another browser, or a forged one) is refused', async () => {
    h = await createOwnerHarness();
    const { authorize, stateCookie } = await h.start();
    const back = await h.authorize(authorize);
    expect((await h.callback(back, undefined)).headers.get('location')).toBe('/account?error=state');
    const forged = stateCookie!.pair.replace(/=.*/, '=%7B%22state%22%3A%22x%22%7D.AAAA');
    expect((await h.callback(back, forged)).headers.get('location')).toBe('/account?error=state');
    expect(h.discord.oauth.tokenRequests).toHaveLength(0);
  });

  it('a code is good once: replaying the callback signs nobody in', async () => {
    h = await createOwnerHarness();
    const { authorize, stateCookie } = await h.start();
    const back = await h.authorize(authorize);
    expect((await h.callback(back, stateCookie?.pair)).headers.get('location')).toBe('/account');
    // The state cookie is gone after use, and its state is recorded as used: a replay of it is
    // refused before Discord is asked again.
    const tokenRequests = h.discord.oauth.tokenRequests.length;
    expect((await h.callback(back, stateCookie?.pair)).headers.get('location')).toBe('/account?error=state');
    expect(h.discord.oauth.tokenRequests).toHaveLength(tokenRequests);
  });

  it('a replayed pending cookie with a fresh code from Discord still cannot sign in twice', async () => {
    h = await createOwnerHarness();
    const { authorize, stateCookie } = await h.start();
    expect((await h.callback(await h.authorize(authorize), stateCookie?.pair)).headers.get('location')).toBe(
      '/account',
    );
    // The same authorize URL (same state) gives a new, unspent code; the old cookie goes with it.
    const again = await h.callback(await h.authorize(authorize), stateCookie?.pair);
    expect(again.headers.get('location')).toBe('/account?error=state');
    expect(cookiesOf(again).has('gr_owner')).toBe(false);
  });

  it('an owner who cancels at Discord is told so and not signed in', async () => {
    h = await createOwnerHarness();
    h.discord.oauth.deny = true;
    const { authorize, stateCookie } = await h.start();
    const res = await h.callback(await h.authorize(authorize), stateCookie?.pair);
    expect(res.headers.get('location')).toBe('/account?error=denied');
    expect(cookiesOf(res).has('gr_owner')).toBe(false);
  });

  it('without DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET sign-in says it is not configured', async () => {
    h = await createOwnerHarness({ DISCORD_CLIENT_ID: '', DISCORD_CLIENT_SECRET: '' });
    expect(await (await h.app.request(`${SITE}/api/account/me`)).json()).toEqual({
      configured: false,
      owner: null,
      csrfToken: null,
    });
    // The no-JavaScript link gets a page saying so (tests/api/owner-sign-in-limits.test.ts reads it).
    const res = await h.app.request(`${SITE}/api/account/sign-in`);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('Sign-in with Discord is not configured on this site yet.');
  });

  it('only one of the client id and secret is a configuration error', async () => {
    const { loadEnv } = await import('../../functions/_app/env');
    expect(() => loadEnv({ DISCORD_CLIENT_ID: '123' })).toThrow(/DISCORD_CLIENT_SECRET/);
  });

  it('on an https site the owner cookies are __Host- and Secure', async () => {
    h = await createOwnerHarness({
      SITE_URL: 'https://guildrank.test',
      IP_HASH_SECRET: 'x'.repeat(40),
      SESSION_SECRET: 'y'.repeat(40),
    });
    const { authorize, stateCookie } = await h.start();
    expect(stateCookie?.raw).toMatch(/^__Host-gr_owner_oauth=.*Secure/);
    expect(authorize.searchParams.get('redirect_uri')).toBe('https://guildrank.test/api/account/callback');
    const res = await h.callback(await h.authorize(authorize), stateCookie?.pair);
    expect(cookiesOf(res).get('__Host-gr_owner')?.raw).toMatch(/Secure/);
  });

  it('sign-out revokes the session: its cookie opens nothing afterwards', async () => {
    h = await createOwnerHarness();
    const owner = await h.signInOwner([]);
    expect((await h.ownerCall(owner, 'GET', '/api/account/listings')).status).toBe(200);
    const out = await h.ownerCall(owner, 'POST', '/api/account/sign-out', {});
    expect(out.status).toBe(200);
    expect(cookiesOf(out).get('gr_owner')?.raw).toMatch(/Max-Age=0/);
    expect((await h.ownerCall(owner, 'GET', '/api/account/listings')).status).toBe(401);
    const row = await getOwnerByDiscordId(h.db, h.discord.oauth.user.id);
    expect(await countOwnerSessions(h.db, row!.id)).toBe(0);
  });

  it('an owner session ends after a day idle, and after a week however active', async () => {
    let now = Date.parse('2026-11-01T12:00:00Z');
    h = await createOwnerHarness({}, { now: () => now });
    const owner = await h.signInOwner([]);
    now += OWNER_SESSION_IDLE_MS - 60_000;
    expect((await h.ownerCall(owner, 'GET', '/api/account/listings')).status).toBe(200);
    now += OWNER_SESSION_IDLE_MS + 1;
    expect((await h.ownerCall(owner, 'GET', '/api/account/listings')).status).toBe(401);

    const active = await h.signInOwner([]);
    const started = now;
    while (now < started + OWNER_SESSION_ABSOLUTE_MS - OWNER_SESSION_IDLE_MS / 2) {
      now += OWNER_SESSION_IDLE_MS / 2;
      expect((await h.ownerCall(active, 'GET', '/api/account/listings')).status).toBe(200);
    }
    now = started + OWNER_SESSION_ABSOLUTE_MS;
    expect((await h.ownerCall(active, 'GET', '/api/account/listings')).status).toBe(401);
  });

  it('sign-out works as a plain form post (no JavaScript)', async () => {
    h = await createOwnerHarness();
    const owner = await h.signInOwner([]);
    const res = await h.app.request(`${SITE}/api/account/sign-out`, {
      method: 'POST',
      headers: { cookie: owner.cookie, origin: SITE, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/account?signed_out=1');
    expect((await h.ownerCall(owner, 'GET', '/api/account/listings')).status).toBe(401);
  });

  it('writes need the session CSRF token', async () => {
    h = await createOwnerHarness();
    const owner = await h.signInOwner([]);
    const res = await h.ownerCall({ ...owner, csrf: 'wrong' }, 'DELETE', '/api/account');
    expect(res.status).toBe(403);
  });
});

describe('ownership from the Discord guild list', () => {
  it('the owner flag claims the listing of that guild', async () => {
    h = await createOwnerHarness();
    const listing = await seedServer(h.db, { guild_id: '500000000000000001' });
    await h.signInOwner([guild('500000000000000001', { owner: true, permissions: '0' })]);
    expect(await claimsOf(h.discord.oauth.user.id)).toEqual([{ server_id: listing.id, proof: 'owner' }]);
  });

  it('the Manage Server permission bit claims it', async () => {
    h = await createOwnerHarness();
    const listing = await seedServer(h.db, { guild_id: '500000000000000002' });
    await h.signInOwner([guild('500000000000000002', { permissions: PERMISSIONS.manageGuild })]);
    expect(await claimsOf(h.discord.oauth.user.id)).toEqual([{ server_id: listing.id, proof: 'manage_guild' }]);
  });

  it('membership without the owner flag or Manage Server claims nothing', async () => {
    h = await createOwnerHarness();
    await seedServer(h.db, { guild_id: '500000000000000003' });
    const owner = await h.signInOwner([guild('500000000000000003', { permissions: PERMISSIONS.member })]);
    expect(await claimsOf(h.discord.oauth.user.id)).toEqual([]);
    const { listings } = (await (await h.ownerCall(owner, 'GET', '/api/account/listings')).json()) as {
      listings: unknown[];
    };
    expect(listings).toEqual([]);
  });

  it('claims are re-checked at each sign-in: a lost permission releases the claim', async () => {
    h = await createOwnerHarness();
    const listing = await seedServer(h.db, { guild_id: '500000000000000004' });
    await h.signInOwner([guild('500000000000000004', { permissions: PERMISSIONS.manageGuild })]);
    expect(await claimsOf(h.discord.oauth.user.id)).toHaveLength(1);
    const owner = await h.signInOwner([guild('500000000000000004', { permissions: PERMISSIONS.member })]);
    expect(await claimsOf(h.discord.oauth.user.id)).toEqual([]);
    expect((await h.ownerCall(owner, 'GET', `/api/account/listings/${listing.id}/numbers`)).status).toBe(404);
  });

  it("another user's sign-in never claims a listing for them without their own proof", async () => {
    h = await createOwnerHarness();
    await seedServer(h.db, { guild_id: '500000000000000005' });
    await h.signInOwner([guild('500000000000000005', { owner: true })]);
    await h.signInOwner([guild('500000000000000005')], { id: '90000000000000001', username: 'a-member' });
    expect(await claimsOf('90000000000000001')).toEqual([]);
  });
});

describe("a signed-in owner's submission carries the proof", () => {
  it('verified when the guild list proved the invite guild theirs; unverified when anonymous', async () => {
    h = await createOwnerHarness();
    h.discord.invites.set('provenguild', {
      guild: { id: '600000000000000001', name: 'Proven' },
      memberCount: 100,
      onlineCount: 10,
    });
    h.discord.invites.set('anonguild', {
      guild: { id: '600000000000000002', name: 'Anon' },
      memberCount: 100,
      onlineCount: 10,
    });
    const owner = await h.signInOwner([guild('600000000000000001', { owner: true })]);
    const signed = await h.app.request(`${SITE}/api/submissions`, {
      method: 'POST',
      headers: { cookie: owner.cookie, origin: SITE, 'content-type': 'application/json' },
      body: JSON.stringify(validSubmission({ invite_link: 'https://discord.gg/provenguild' })),
    });
    expect(signed.status).toBe(201);
    const anon = await h.app.request(`${SITE}/api/submissions`, {
      method: 'POST',
      headers: { origin: SITE, 'content-type': 'application/json' },
      body: JSON.stringify(validSubmission({ invite_link: 'https://discord.gg/anonguild', server_name: 'Anon' })),
    });
    expect(anon.status).toBe(201);
    const rows = await h.db.select().from(serverSubmissions);
    const byGuild = Object.fromEntries(rows.map((r) => [r.guild_id, [r.owner_id !== null, r.owner_verified]]));
    expect(byGuild).toEqual({ '600000000000000001': [true, true], '600000000000000002': [false, false] });

    // The console's queue shows which is which, and approving the verified one makes it the owner's.
    const admin = await h.signIn('moderator');
    const queue = (await (await h.call(admin, 'GET', '/api/admin/submissions')).json()) as {
      submissions: { id: number; owner_verified: boolean; guild_id: string }[];
    };
    const verified = queue.submissions.find((s) => s.guild_id === '600000000000000001')!;
    expect(verified.owner_verified).toBe(true);
    expect((await h.call(admin, 'POST', `/api/admin/submissions/${verified.id}/approve`, {})).status).toBe(200);
    const { listings } = (await (await h.ownerCall(owner, 'GET', '/api/account/listings')).json()) as {
      listings: { name: string }[];
    };
    expect(listings.map((l) => l.name)).toEqual(['Pixel Raiders']);
  });

  it('a signed-in owner submitting a guild the list did not prove is recorded, unverified', async () => {
    h = await createOwnerHarness();
    h.discord.invites.set('notmine', {
      guild: { id: '600000000000000003', name: 'Not mine' },
      memberCount: 500,
      onlineCount: 1,
    });
    const owner = await h.signInOwner([guild('600000000000000003')]);
    const res = await h.app.request(`${SITE}/api/submissions`, {
      method: 'POST',
      headers: { cookie: owner.cookie, origin: SITE, 'content-type': 'application/json' },
      body: JSON.stringify(validSubmission({ invite_link: 'https://discord.gg/notmine' })),
    });
    expect(res.status).toBe(201);
    const [row] = await h.db.select().from(serverSubmissions);
    expect([row!.owner_id !== null, row!.owner_verified]).toEqual([true, false]);
  });
});
