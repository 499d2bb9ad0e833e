// Owner sign-in (#17) on the Cloudflare entry: the Worker in workerd (oauth4webapi, WebCrypto's PKCE
// and the signed cookies) against the loopback Discord stand-in and a libSQL database over HTTP.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../db/queries/servers';
import { randomSecret } from '../../functions/_app/env';
import { type LibsqlHttpServer, startLibsqlHttpServer } from '../fixtures/libsql-http-server';
import { createTestDb, type TestDb } from '../helpers/db';
import { type DiscordStandIn, STAND_IN_CLIENT, startDiscordStandIn } from '../helpers/discord-stand-in';
import { startWranglerDev, type WranglerDev } from '../helpers/wrangler-dev';

const GUILD = '940000000000000001';
let tdb: TestDb;
let libsql: LibsqlHttpServer;
let worker: WranglerDev;
let discord: DiscordStandIn;
let edgeListing: { id: number; slug: string };

beforeAll(async () => {
  const token = randomSecret();
  tdb = await createTestDb();
  edgeListing = await createServer(tdb.db, { name: 'Edge Owned', category: 'Gaming', guild_id: GUILD });
  libsql = await startLibsqlHttpServer({ file: tdb.url.replace(/^file:/, ''), authToken: token });
  discord = await startDiscordStandIn();
  mkdirSync(join(tdb.dir, 'assets'), { recursive: true });
  writeFileSync(join(tdb.dir, 'assets', 'account.html'), '<!doctype html><title>My listings</title>');
  worker = await startWranglerDev({
    dir: join(tdb.dir, 'wrangler'),
    assets: join(tdb.dir, 'assets'),
    vars: {
      DATABASE_URL: libsql.url,
      DATABASE_AUTH_TOKEN: token,
      IP_HASH_SECRET: randomSecret(),
      SESSION_SECRET: randomSecret(),
      DISCORD_API_BASE: discord.url,
      DISCORD_OAUTH_BASE: discord.origin,
      DISCORD_CLIENT_ID: STAND_IN_CLIENT.id,
      DISCORD_CLIENT_SECRET: STAND_IN_CLIENT.secret,
    },
  });
}, 240_000);

afterAll(async () => {
  await worker?.stop();
  await libsql?.stop();
  await discord?.close();
  tdb?.cleanup();
});

/** `name=value` of each Set-Cookie, joined for a Cookie header. */
const cookieHeader = (res: Response) =>
  res.headers
    .getSetCookie()
    .filter((c) => !/Max-Age=0/.test(c))
    .map((c) => c.split(';')[0])
    .join('; ');

describe('owner sign-in in workerd', () => {
  it('signs in through Discord with state and PKCE and claims the listing of the owned guild', async () => {
    discord.oauth.guilds = [{ id: GUILD, name: 'Edge Owned', owner: true, permissions: '0' }];
    const start = await fetch(`${worker.url}/api/account/sign-in`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${worker.url}/api/account/callback`);

    const atDiscord = await fetch(authorize, { redirect: 'manual' });
    const back = new URL(atDiscord.headers.get('location')!);

    // A wrong state first: refused, no session.
    const forged = new URL(back);
    forged.searchParams.set('state', 'not-the-state-we-sent-000000000000');
    const refused = await fetch(forged, { redirect: 'manual', headers: { cookie: cookieHeader(start) } });
    expect(refused.headers.get('location')).toBe('/account?error=state');
    expect(cookieHeader(refused)).not.toContain('gr_owner=');

    // A fresh sign-in, completed.
    const again = await fetch(`${worker.url}/api/account/sign-in`, { redirect: 'manual' });
    const backAgain = new URL(
      (await fetch(new URL(again.headers.get('location')!), { redirect: 'manual' })).headers.get('location')!,
    );
    const done = await fetch(backAgain, { redirect: 'manual', headers: { cookie: cookieHeader(again) } });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/account');
    const cookie = cookieHeader(done);
    expect(cookie).toMatch(/gr_owner=/);

    const listings = await fetch(`${worker.url}/api/account/listings`, { headers: { cookie } });
    expect(listings.status).toBe(200);
    expect(((await listings.json()) as { listings: { name: string; proof: string }[] }).listings).toEqual([
      expect.objectContaining({ name: 'Edge Owned', proof: 'owner' }),
    ]);
    // Discord's token was used, then revoked.
    expect(discord.oauth.liveTokens.size).toBe(0);
    // The owner cookie is nothing to the console.
    expect((await fetch(`${worker.url}/api/admin/me`, { headers: { cookie } })).status).toBe(401);
  });

  it('takes a member review at the edge (#31): the review sign-in reads joined_at, the review is stored in Turso and read back', async () => {
    // A member of 10 days with an old Discord account (the stand-in's default user id is from 2016).
    discord.oauth.user = { id: '80351110224678912', username: 'edge-member', global_name: 'Edge Member', avatar: null };
    discord.oauth.guilds = [
      {
        id: GUILD,
        name: 'Edge Owned',
        owner: false,
        permissions: '0',
        joined_at: new Date(Date.now() - 10 * 86_400_000).toISOString(),
      },
    ];
    const start = await fetch(`${worker.url}/api/account/sign-in?review=${edgeListing.slug}`, { redirect: 'manual' });
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.searchParams.get('scope')).toBe('identify guilds guilds.members.read');
    const back = new URL((await fetch(authorize, { redirect: 'manual' })).headers.get('location')!);
    const done = await fetch(back, { redirect: 'manual', headers: { cookie: cookieHeader(start) } });
    expect(done.headers.get('location')).toBe(`/server/${edgeListing.slug}#write-review`);
    const cookie = cookieHeader(done);
    const me = (await (await fetch(`${worker.url}/api/account/me`, { headers: { cookie } })).json()) as {
      csrfToken: string;
    };
    const id = edgeListing.id;
    const body = 'Reviewed at the edge: quick answers and fair moderators.';
    const res = await fetch(`${worker.url}/api/reviews/servers/${id}`, {
      method: 'POST',
      headers: { cookie, origin: worker.url, 'content-type': 'application/json', 'x-csrf-token': me.csrfToken },
      body: JSON.stringify({ rating: 5, body }),
    });
    expect(res.status).toBe(201);
    const list = await fetch(`${worker.url}/api/reviews/servers/${id}`);
    expect(list.headers.get('cache-control')).toBe('public, max-age=5');
    const page = (await list.json()) as { reviews: { body: string; display_name: string }[] };
    expect(page.reviews).toEqual([expect.objectContaining({ body, display_name: 'Edge Member' })]);
  });
});
