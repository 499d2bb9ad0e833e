import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFakeServers } from '../../db/fake';
import { createOperator } from '../../db/queries/operators';
import { createServer, type Server } from '../../db/queries/servers';
import { seedIfEmpty } from '../../db/seed';
import { randomSecret } from '../../functions/_app/env';
import { REQUESTED_SLUG } from '../../functions/_app/routes/site-redirects';
import { serverSlug } from '../../src/lib/slug';
import { type SiteverifyStandIn, startSiteverify, TURNSTILE_PASS } from '../api/api-harness';
import { type LibsqlHttpServer, startLibsqlHttpServer } from '../fixtures/libsql-http-server';
import { createTestDb, type TestDb } from '../helpers/db';
import { type DiscordStandIn, STAND_IN_CLIENT, startDiscordStandIn } from '../helpers/discord-stand-in';
import { runScript } from '../helpers/run-script';
import { startWranglerDev, type WranglerDev } from '../helpers/wrangler-dev';

const root = resolve(import.meta.dirname, '../..');
const SITE_URL = 'https://guildrank.example';
/** The guild of the listing an owner removes through the Worker. */
const GUILD = '940000000000000042';

let tdb: TestDb;
let libsql: LibsqlHttpServer;
let worker: WranglerDev;
/** Scratch folder inside the repository: Astro stages an outDir outside it in the shared ./.astro/. */
let scratch: string;
/** The build's static files (`<outDir>/client`) and its Worker (`<outDir>/server`). */
let client: string;
let server: string;
let twin: Server;
/** A listing whose prerendered file stays: answered by the static assets. */
let sibling: Server;
/** The prerendered HTML of `twin`, taken out of the assets before the Worker started. */
let prerendered: string;
/** The same for page 2 of the full list (a listing page, with islands). */
let prerenderedListing: string;
/** A listing its owner removes through the Worker (its file taken out too). */
let owned: Server;
let discord: DiscordStandIn;
/** The deploy hook's stand-in: counts the rebuilds the Worker asks for. */
let hook: HttpServer;
let hookPosts = 0;
let policy: string;
let siteverify: SiteverifyStandIn;
/** What the deploy's dry run printed. */
let deployOutput: string;
/** Cloudflare's published always-passing test site key. */
const TURNSTILE_SITE_KEY = '1x00000000000000000000AA';
/** The stale window of the listing cache in this Worker (LISTING_STALE_SECONDS). */
const STALE_SECONDS = 4;

/** Runs `npm run deploy -- --dry-run` in a child process (the database fixture answers it from this one). */
async function deployDryRun(outDir: string, env: Record<string, string>): Promise<string> {
  const { code, out } = await runScript('scripts/deploy.ts', ['--dry-run', '--out-dir', outDir], env);
  if (code !== 0) throw new Error(`npm run deploy -- --dry-run exited ${code}:\n${out}`);
  return out;
}

/** Polls `check` until it returns a value (no fixed sleep), failing after `ms`. */
async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  while (true) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

/** `name=value` of each Set-Cookie, joined for a Cookie header. */
const cookieHeader = (res: Response) =>
  res.headers
    .getSetCookie()
    .filter((c) => !/Max-Age=0/.test(c))
    .map((c) => c.split(';')[0])
    .join('; ');

/** Waits until `path` is answered from the cache: 200 while the database answers only 503. */
async function untilCached(path: string): Promise<string> {
  libsql.setUnavailable(true);
  try {
    return await until(`${path} from the cache`, async () => {
      const res = await fetch(`${worker.url}${path}`);
      const body = await res.text();
      return res.status === 200 ? body : undefined;
    });
  } finally {
    libsql.setUnavailable(false);
  }
}

beforeAll(async () => {
  const token = randomSecret();
  tdb = await createTestDb();
  await seedIfEmpty(tdb.db);
  // Enough listings for a second page of the full list (24 a page).
  await insertFakeServers(tdb.client, 40);
  twin = await createServer(tdb.db, {
    name: 'Edge Twin Lounge',
    description: 'A listing rendered twice: once by the build, once by the Worker.',
    category: 'Gaming',
    members: 4321,
    affiliate_link: 'https://discord.gg/edgetwin',
  });
  // Listed long ago: the page says "Listed … ago", and the build and the Worker render it minutes apart.
  await tdb.client.execute({
    sql: "UPDATE discord_servers SET created_at = '2024-01-01T00:00:00.000Z' WHERE id = ?",
    args: [twin.id],
  });
  sibling = await createServer(tdb.db, { name: 'Edge Static Sibling', category: 'Gaming', members: 99 });
  owned = await createServer(tdb.db, { name: 'Edge Owned Listing', category: 'Gaming', members: 77, guild_id: GUILD });
  discord = await startDiscordStandIn();
  siteverify = await startSiteverify();
  hook = createHttpServer((req, res) => {
    if (req.method === 'POST') hookPosts++;
    req.resume();
    res.end('{}');
  });
  await new Promise<void>((ok) => hook.listen(0, '127.0.0.1', ok));
  libsql = await startLibsqlHttpServer({ file: tdb.url.replace(/^file:/, ''), authToken: token });
  mkdirSync(join(root, '.tmp'), { recursive: true });
  scratch = mkdtempSync(join(root, '.tmp', 'on-demand-'));
  const outDir = join(scratch, 'dist');
  // The repository's wrangler.toml with Turnstile's site key added to [vars], as docs/deploy.md says.
  const config = join(scratch, 'wrangler.toml');
  writeFileSync(
    config,
    readFileSync(join(root, 'wrangler.toml'), 'utf8')
      .replace(/^main = .*$/m, `main = ${JSON.stringify(join(root, 'functions/site-worker.ts'))}`)
      .replace(/^\[vars\]$/m, `[vars]\nTURNSTILE_SITE_KEY = "${TURNSTILE_SITE_KEY}"`),
  );
  // Every listing prerendered, so the twin's file is what the build makes of it.
  deployOutput = await deployDryRun(outDir, {
    DATABASE_URL: libsql.url,
    DATABASE_AUTH_TOKEN: token,
    WRANGLER_CONFIG: config,
    PRERENDER_SERVERS: '1000',
    ASTRO_CACHE_DIR: join(scratch, 'cache'),
  });
  client = join(outDir, 'client');
  server = join(outDir, 'server');
  const file = join(client, 'server', `${twin.slug}.html`);
  prerendered = readFileSync(file, 'utf8');
  rmSync(file);
  rmSync(join(client, 'server', `${owned.slug}.html`));
  const listingFile = join(client, 'servers', 'page', '2.html');
  prerenderedListing = readFileSync(listingFile, 'utf8');
  rmSync(listingFile);
  policy = readFileSync(join(client, 'csp-policy.txt'), 'utf8').trim();
  worker = await startWranglerDev({
    dir: join(scratch, 'wrangler'),
    builtConfig: join(outDir, 'server', 'wrangler.json'),
    vars: {
      SITE_URL,
      DATABASE_URL: libsql.url,
      DATABASE_AUTH_TOKEN: token,
      IP_HASH_SECRET: randomSecret(),
      SESSION_SECRET: randomSecret(),
      REBUILD_HOOK_URL: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`,
      DISCORD_API_BASE: discord.url,
      DISCORD_OAUTH_BASE: discord.origin,
      DISCORD_CLIENT_ID: STAND_IN_CLIENT.id,
      DISCORD_CLIENT_SECRET: STAND_IN_CLIENT.secret,
      // A Worker secret (wrangler secret put TURNSTILE_SECRET), checked at the siteverify stand-in.
      TURNSTILE_SECRET: TURNSTILE_PASS,
      TURNSTILE_SITEVERIFY_URL: siteverify.url,
      // A short stale window, so the listing cache's refresh is asked for within the test.
      LISTING_STALE_SECONDS: String(STALE_SECONDS),
    },
  });
}, 600_000);

afterAll(async () => {
  await worker?.stop();
  await libsql?.stop();
  await discord?.close();
  await siteverify?.close();
  await new Promise((ok) => (hook ? hook.close(ok) : ok(undefined)));
  tdb?.cleanup();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The headers a visitor or a crawler can compare between two pages (not the asset layer's ETag). */
const SAME_HEADERS = [
  'content-type',
  'cache-control',
  'content-security-policy',
  'strict-transport-security',
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
  'x-frame-options',
  'cross-origin-opener-policy',
];
const pick = (res: Response) => Object.fromEntries(SAME_HEADERS.map((h) => [h, res.headers.get(h)]));

describe('server pages on demand in workerd (ASTRO_ADAPTER=cloudflare build)', () => {
  it('renders a listing without a static file as the same HTML and headers as its prerendered page', async () => {
    const res = await fetch(`${worker.url}/server/${twin.slug}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Edge Twin Lounge');
    expect(html).toBe(prerendered);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(policy);
    // A prerendered listing, answered by the static assets: the same headers.
    const fromAssets = await fetch(`${worker.url}/server/${sibling.slug}`);
    expect(fromAssets.status).toBe(200);
    await fromAssets.arrayBuffer();
    expect(pick(res)).toEqual(pick(fromAssets));
    // Revalidation as the assets answer it: an ETag of the same shape, and a 304 for it.
    const etag = res.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(fromAssets.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    const revalidated = await fetch(`${worker.url}/server/${twin.slug}`, { headers: { 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);
    expect(pick(revalidated)).toEqual(pick(res));
  });

  it('renders a listing page past the prerendered ones as the same HTML as its prerendered file', async () => {
    const res = await fetch(`${worker.url}/servers/page/2`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(prerenderedListing);
    expect(res.headers.get('content-security-policy')).toBe(policy);
  });

  it("answers the second request from the data center's cache, without the database", async () => {
    // The first test's answer was put in the cache after it was sent (waitUntil): with the
    // database answering 503, the page can only come from there.
    expect(await untilCached(`/server/${twin.slug}`)).toBe(prerendered);
  });

  it('deletes a page from the cache when its listing changes through the Worker (the owner removes it)', async () => {
    const path = `/server/${owned.slug}`;
    expect((await fetch(`${worker.url}${path}`)).status).toBe(200);
    expect(await untilCached(path)).toContain('Edge Owned Listing');
    // The owner signs in through the Discord stand-in and removes the listing.
    discord.oauth.guilds = [{ id: GUILD, name: 'Edge Owned Listing', owner: true, permissions: '0' }];
    const start = await fetch(`${worker.url}/api/account/sign-in`, { redirect: 'manual' });
    const atDiscord = await fetch(new URL(start.headers.get('location') ?? ''), { redirect: 'manual' });
    const back = new URL(atDiscord.headers.get('location') ?? '');
    const done = await fetch(back, { redirect: 'manual', headers: { cookie: cookieHeader(start) } });
    expect(done.status).toBe(303);
    const cookie = cookieHeader(done);
    const me = (await (await fetch(`${worker.url}/api/account/me`, { headers: { cookie } })).json()) as {
      csrfToken: string;
    };
    const removed = await fetch(`${worker.url}/api/account/listings/${owned.id}`, {
      method: 'DELETE',
      headers: { cookie, origin: worker.url, 'x-csrf-token': me.csrfToken },
    });
    expect(removed.status).toBe(200);
    // At once, not when the cached copy expires: the page is gone from this data center's cache.
    const after = await fetch(`${worker.url}${path}`);
    expect(after.status).toBe(404);
    expect(await after.text()).toContain(owned.slug);
    // And the deploy hook was still asked for the rebuild of the prerendered pages.
    await until('the deploy hook', async () => (hookPosts > 0 ? true : undefined));
  });

  it('answers a slug with no server with the server-not-found screen (404)', async () => {
    const res = await fetch(`${worker.url}/server/no-such-listing-here`);
    expect(res.status).toBe(404);
    const screen = readFileSync(join(client, 'server-not-found.html'), 'utf8');
    expect(await res.text()).toBe(screen.replaceAll(REQUESTED_SLUG, 'no-such-listing-here'));
    expect(res.headers.get('content-security-policy')).toBe(policy);
  });

  it('serves a listing approved after the build on its first request (a 404 is never cached)', async () => {
    const slug = serverSlug('Approved After The Build');
    const before = await fetch(`${worker.url}/server/${slug}`);
    expect(before.status).toBe(404);
    await before.arrayBuffer();
    const approved = await createServer(tdb.db, { name: 'Approved After The Build', category: 'Gaming', members: 12 });
    expect(approved.slug).toBe(slug);
    const started = performance.now();
    const res = await fetch(`${worker.url}/server/${slug}`);
    const ms = performance.now() - started;
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Approved After The Build');
    expect(ms).toBeLessThan(10_000);
  });

  it("renders a listing's reviews page on request, cached by its key; its redirect and its 400 pass through", async () => {
    // Twelve reviews of the sibling, a minute apart: the page before the 10th's key shows the last two.
    let tenth = '';
    for (let i = 0; i < 12; i++) {
      const account = await tdb.client.execute({
        sql: 'INSERT INTO owner_users (discord_user_id, username) VALUES (?, ?) RETURNING id',
        args: [`95000000000000${String(i).padStart(4, '0')}`, `edge-reviewer-${i}`],
      });
      const createdAt = new Date(Date.now() - (60 + i) * 60_000).toISOString();
      const review = await tdb.client.execute({
        sql: `INSERT INTO reviews (server_id, account_id, rating, body, display_name, member_since, created_at)
              VALUES (?, ?, 4, ?, ?, ?, ?) RETURNING id`,
        args: [
          sibling.id,
          Number(account.rows[0]!.id),
          `Edge review ${i}, long enough to be one.`,
          `Edge ${i}`,
          createdAt,
          createdAt,
        ],
      });
      if (i === 9) tenth = `${createdAt}~${Number(review.rows[0]!.id)}`;
    }
    const path = `/server/${sibling.slug}/reviews?before=${encodeURIComponent(tenth)}`;
    const res = await fetch(`${worker.url}${path}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Edge review 10, long enough');
    expect(html).toContain('Edge review 11, long enough');
    expect(html).not.toContain('Edge review 9,');
    expect(html).toContain(`<link rel="canonical" href="${SITE_URL}${path.replaceAll('&', '&amp;')}">`);
    // The headers of any page, and its ETag (304 to a browser that has it).
    const fromAssets = await fetch(`${worker.url}/server/${sibling.slug}`);
    await fromAssets.arrayBuffer();
    expect(pick(res)).toEqual(pick(fromAssets));
    const etag = res.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await fetch(`${worker.url}${path}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect(await untilCached(path)).toBe(html);
    const bare = await fetch(`${worker.url}/server/${sibling.slug}/reviews`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe(`/server/${sibling.slug}#reviews`);
    const bad = await fetch(`${worker.url}/server/${sibling.slug}/reviews?before=yesterday`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('<h1>This link to reviews is not valid</h1>');
    expect(bad.headers.get('content-security-policy')).toBe(policy);
    const none = await fetch(`${worker.url}/server/no-such-listing-here/reviews?before=${encodeURIComponent(tenth)}`);
    expect(none.status).toBe(404);
    expect(await none.text()).toContain('no-such-listing-here');
  });

  it("shows no review a moderator hid through the Worker on the listing's reviews pages on the next request, however they are keyed", async () => {
    // The last reviews page of the sibling, as its pager links it and as a visitor wrote its key by hand.
    const [row] = (
      await tdb.client.execute({
        sql: "SELECT id, created_at FROM reviews WHERE body = 'Edge review 9, long enough to be one.'",
        args: [],
      })
    ).rows;
    const key = `${row!.created_at as string}~${Number(row!.id)}`;
    const paths = [
      `/server/${sibling.slug}/reviews?before=${encodeURIComponent(key)}`,
      `/server/${sibling.slug}/reviews?before=${encodeURIComponent(key.replace(/\.\d+Z~/, 'Z~'))}`,
    ];
    for (const path of paths) {
      expect(await (await fetch(`${worker.url}${path}`)).text()).toContain('Edge review 11, long enough');
      expect(await untilCached(path)).toContain('Edge review 11, long enough');
    }
    const [eleventh] = (
      await tdb.client.execute({
        sql: "SELECT id FROM reviews WHERE body = 'Edge review 11, long enough to be one.'",
        args: [],
      })
    ).rows;
    await createOperator(tdb.db, { email: 'mod@example.com', password: 'edge moderator password', role: 'moderator' });
    const login = await fetch(`${worker.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: worker.url },
      body: JSON.stringify({ email: 'mod@example.com', password: 'edge moderator password' }),
    });
    expect(login.status).toBe(200);
    const { csrfToken } = (await login.json()) as { csrfToken: string };
    const hide = await fetch(`${worker.url}/api/admin/reviews/${Number(eleventh!.id)}`, {
      method: 'POST',
      headers: {
        cookie: cookieHeader(login),
        origin: worker.url,
        'x-csrf-token': csrfToken,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ action: 'hide', reason: 'personal information' }),
    });
    expect(hide.status).toBe(200);
    // At once, not when the cached copies expire (a minute): neither key shows the hidden text.
    for (const path of paths) {
      const html = await (await fetch(`${worker.url}${path}`)).text();
      expect(html, path).toContain('Edge review 10, long enough');
      expect(html, path).not.toContain('Edge review 11, long enough');
      expect(html, path).toContain('personal information');
    }
  });

  it('has no static node: import in the built Worker (wrangler.toml has no nodejs_compat)', () => {
    const found: string[] = [];
    for (const file of readdirSync(server, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.mjs')) continue;
      const code = readFileSync(join(server, file), 'utf8');
      for (const m of code.matchAll(/(?:from|import)\s*["'](node:[\w/]+)["']/g)) found.push(`${file}: ${m[1]}`);
    }
    expect(found).toEqual([]);
  });
});

/** Waits until `ms` milliseconds have passed since `since` (time itself is what these tests are about). */
const atElapsed = async (since: number, ms: number) => {
  while (Date.now() - since < ms) await new Promise((ok) => setTimeout(ok, Math.min(250, ms - (Date.now() - since))));
};

describe('the deployed Worker (npm run deploy -- --dry-run) in workerd', () => {
  it('passed the deploy check: the settings the build read agree with the Worker’s', () => {
    expect(deployOutput).toContain('Settings the build and the Worker share agree');
    expect(deployOutput).toContain('Dry run complete');
  });

  it('answers the same listing query 200 at 0 s, at 3 s and after the stale window, refreshing behind', async () => {
    const url = `${worker.url}/api/servers?category=gaming&sort=members&per_page=3`;
    const names = async (res: Response) =>
      ((await res.json()) as { servers: { name: string }[] }).servers.map((s) => s.name);
    const start = Date.now();
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(await names(first)).not.toContain('Cache Probe Guild');
    // A change the cached answer does not have yet: the background refresh at 3 s must bring it.
    await createServer(tdb.db, { name: 'Cache Probe Guild', category: 'Gaming', members: 9_000_000 });
    await atElapsed(start, 3_000);
    const stale = await fetch(url);
    expect(stale.status).toBe(200);
    await until('the background refresh', async () => {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      return (await names(res)).includes('Cache Probe Guild') ? true : undefined;
    });
    // Past the stale window of everything cached so far: loaded again, never a refresh left hanging.
    await atElapsed(start, 3_000 + STALE_SECONDS * 1000 + 1_500);
    const later = await fetch(url);
    expect(later.status).toBe(200);
    expect(await names(later)).toContain('Cache Probe Guild');
  }, 60_000);

  it('shows Turnstile with the site key from [vars] and takes a form post with the stand-in’s token (201)', async () => {
    const home = await (await fetch(`${worker.url}/`)).text();
    expect(home).toContain(`data-sitekey="${TURNSTILE_SITE_KEY}"`);
    const post = (token?: string) =>
      fetch(`${worker.url}/api/newsletter`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: worker.url },
        body: JSON.stringify({
          email: `visitor-${token ? 'with' : 'without'}@example.com`,
          'cf-turnstile-response': token,
        }),
      });
    const refused = await post();
    expect(refused.status).toBe(403);
    const asked = siteverify.asked;
    const taken = await post('XXXX.DUMMY.TOKEN.XXXX');
    expect(taken.status).toBe(201);
    expect(siteverify.asked).toBe(asked + 1);
  });

  it('answers an uncached listing 503 with Retry-After while the database is unreachable, not its not-found screen', async () => {
    const probe = await createServer(tdb.db, { name: 'Outage Probe Lounge', category: 'Gaming', members: 5 });
    libsql.setUnavailable(true);
    try {
      const down = await fetch(`${worker.url}/server/${probe.slug}`);
      expect(down.status).toBe(503);
      expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await down.text()).not.toContain(REQUESTED_SLUG);
    } finally {
      libsql.setUnavailable(false);
    }
    // Back: the page answers again (the database client may spend its first request reconnecting).
    await until('the page once the database is back', async () => {
      const res = await fetch(`${worker.url}/server/${probe.slug}`);
      await res.arrayBuffer();
      return res.status === 200 ? true : undefined;
    });
  });

  it('answers /_image with the type of each image, keyed by its full URL', async () => {
    const png = await fetch(`${worker.url}/_image?href=${encodeURIComponent('/icon-192.png')}&w=192&h=192&f=png`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toMatch(/^image\/png/);
    expect([...new Uint8Array(await png.arrayBuffer()).subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    const jpeg = await fetch(`${worker.url}/_image?href=${encodeURIComponent('/og-default.jpg')}&w=1200&h=630&f=jpeg`);
    expect(jpeg.status).toBe(200);
    expect(jpeg.headers.get('content-type')).toMatch(/^image\/jpeg/);
    expect([...new Uint8Array(await jpeg.arrayBuffer()).subarray(0, 2)]).toEqual([0xff, 0xd8]);
  });

  it('answers a trailing slash 301 to the address without it, static and on-demand pages alike', async () => {
    for (const [path, location] of [
      ['/help/', '/help'],
      ['/best-gaming-discord/?ref=x', '/best-gaming-discord?ref=x'],
      [`/server/${twin.slug}/`, `/server/${twin.slug}`],
    ] as const) {
      const res = await fetch(`${worker.url}${path}`, { redirect: 'manual' });
      expect(res.status, path).toBe(301);
      expect(res.headers.get('location'), path).toBe(location);
    }
  });

  it('runs a Cron Trigger through wrangler dev’s scheduled route (the session sweep)', async () => {
    const operator = await createOperator(tdb.db, {
      email: 'cron@example.com',
      password: 'cron test password',
      role: 'admin',
    });
    await tdb.client.execute({
      sql: "INSERT INTO sessions (id, operator_id, csrf_token, expires_at) VALUES ('expired-session', ?, 'x', '2000-01-01T00:00:00.000Z')",
      args: [operator.id],
    });
    const res = await fetch(`${worker.url}/cdn-cgi/local/scheduled?cron=${encodeURIComponent('*/15 * * * *')}`);
    expect(res.status).toBe(200);
    await until('the session sweep', async () => {
      const rows = await tdb.client.execute("SELECT id FROM sessions WHERE id = 'expired-session'");
      return rows.rows.length === 0 ? true : undefined;
    });
  });
});
