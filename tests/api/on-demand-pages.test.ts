import { mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../../db/client';
import { insertFakeServers } from '../../db/fake';
import { migrateDb } from '../../db/migrate';
import { createOperator } from '../../db/queries/operators';
import { createServer, listServersWithPages, type Server, setServerActive } from '../../db/queries/servers';
import { ownerUsers, reviews } from '../../db/schema';
import { seedIfEmpty } from '../../db/seed';
import { loadEnv } from '../../functions/_app/env';
import { startNodeServer } from '../../functions/_app/node';
import { createOnDemandPages } from '../../functions/_app/on-demand';
import { createStaticHandler } from '../../functions/_app/static';
import { compareServers } from '../../src/lib/listing';
import { startLibsqlHttpServer } from '../fixtures/libsql-http-server';

// #18 on Node: the build prerenders only the top PRERENDER_SERVERS server pages by rank; every
// other one is rendered on request by the same page code inside the server `npm start` runs.

const PRERENDERED = 3;
const PASSWORD = 'on-demand test password';

let dir: string;
let buildsDir: string;
let server: Awaited<ReturnType<typeof startNodeServer>>;
let db: Db;
let close: () => void;
let base: string;
let ranked: Server[];

/** The headers a visitor can see, without the ones that differ per response. */
const visible = (res: Response) =>
  Object.fromEntries(
    [...res.headers].filter(
      ([name]) => !['date', 'x-request-id', 'content-length', 'connection', 'keep-alive'].includes(name),
    ),
  );

const clientDir = () => server.builder.liveDir() as string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'guildrank-on-demand-'));
  const url = `file:${join(dir, 'site.db')}`;
  const seeding = await openDb({ url });
  await migrateDb(seeding.db);
  await seedIfEmpty(seeding.db);
  await insertFakeServers(seeding.client, 30);
  await createOperator(seeding.db, { email: 'ops@example.com', password: PASSWORD, role: 'admin' });
  seeding.client.close();
  const env = loadEnv({
    DATABASE_URL: url,
    PORT: '0',
    HOST: '127.0.0.1',
    SITE_URL: 'http://localhost:4321',
    REFRESH_ENABLED: 'false',
    RATE_LIMITS: 'false',
  });
  // Inside the project: Astro stages prerender chunks beside an output folder within the working directory.
  buildsDir = join(process.cwd(), '.tmp', `on-demand-${basename(dir)}`);
  server = await startNodeServer({
    env,
    buildsDir,
    log: () => {},
    buildEnv: { PRERENDER_SERVERS: String(PRERENDERED) },
  });
  base = `http://127.0.0.1:${server.port}`;
  const opened = await openDb({ url });
  db = opened.db;
  close = () => opened.client.close();
  ranked = (await listServersWithPages(db)).toSorted(compareServers('active'));
}, 600_000);

afterAll(async () => {
  close?.();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(buildsDir, { recursive: true, force: true });
});

describe('server pages past PRERENDER_SERVERS (Node)', () => {
  it('prerenders the top listings by rank and no other server page', () => {
    const files = readFileSync(join(clientDir(), 'server', `${ranked[0]!.slug}.html`), 'utf8');
    expect(files).toContain(ranked[0]!.name.replaceAll('&', '&amp;'));
    expect(() => readFileSync(join(clientDir(), 'server', `${ranked[PRERENDERED]!.slug}.html`))).toThrow();
  });

  it('renders a long-tail page on request with the headers of a prerendered page', async () => {
    const tail = ranked.at(-1)!;
    const [staticRes, tailRes] = await Promise.all([
      fetch(`${base}/server/${ranked[0]!.slug}`),
      fetch(`${base}/server/${tail.slug}`),
    ]);
    expect(tailRes.status).toBe(200);
    expect(visible(tailRes)).toEqual(visible(staticRes));
    const html = await tailRes.text();
    expect(html).toContain(`<h1>${tail.name.replaceAll('&', '&amp;')}</h1>`);
    expect(html).toContain(`/server/${tail.slug}`);
  });

  it('gives a listing the same HTML on request as the build wrote for it', async () => {
    const top = ranked[1]!;
    const file = join(clientDir(), 'server', `${top.slug}.html`);
    const built = readFileSync(file, 'utf8');
    // Without its file, the same path is answered by the on-demand page.
    unlinkSync(file);
    const res = await fetch(`${base}/server/${top.slug}`, { headers: { 'accept-encoding': 'identity' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(built);
  });

  it('answers a slug no server has with the server-not-found screen, and caches nothing for it', async () => {
    const before = server.onDemand.size();
    const res = await fetch(`${base}/server/no-such-server-here`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Server not found');
    expect(server.onDemand.size()).toBe(before);
  });

  it('keeps a rendered page in the cache until something changes', async () => {
    const tail = ranked.at(-2)!;
    server.onDemand.invalidate();
    await (await fetch(`${base}/server/${tail.slug}`)).text();
    expect(server.onDemand.size()).toBe(1);
    await (await fetch(`${base}/server/${tail.slug}`)).text();
    expect(server.onDemand.size()).toBe(1);
  });

  it('serves an approved long-tail listing at once, before any rebuild', async () => {
    const created = await createServer(db, {
      name: 'Fresh Tail Guild',
      description: 'A community added after the build, for the on-demand test.',
      category: 'Gaming',
      members: 12,
      active_users: 3,
    });
    const res = await fetch(`${base}/server/${created.slug}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Fresh Tail Guild');
  });

  it('stops serving a prerendered page the moment an operator hides its listing', async () => {
    const top = ranked[0]!;
    const login = await fetch(`${base}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ email: 'ops@example.com', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const { csrfToken } = (await login.json()) as { csrfToken: string };
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const hide = await fetch(`${base}/api/admin/servers/${top.id}/visibility`, {
      method: 'PATCH',
      headers: { cookie, origin: base, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify({ is_active: false, reasons: ['other'] }),
    });
    expect(hide.status).toBe(200);
    // The build's file is still there (the rebuild has not finished), but it is stale now.
    expect(readFileSync(join(clientDir(), 'server', `${top.slug}.html`), 'utf8')).toContain(top.slug);
    const res = await fetch(`${base}/server/${top.slug}`);
    expect(res.status).toBe(404);
    await server.builder.idle();
    expect(server.builder.status().state).toBe('idle');
    expect((await fetch(`${base}/server/${top.slug}`)).status).toBe(404);
    // A whole rebuild happens inside this test: its time, not the 30 s of a request-sized test.
  }, 120_000);

  it('answers an on-demand page with a trailing slash 301 to its address without it', async () => {
    const tail = ranked.at(-3)!;
    const res = await fetch(`${base}/server/${tail.slug}/?ref=x`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`/server/${tail.slug}?ref=x`);
    expect((await fetch(`${base}/server/${tail.slug}`)).status).toBe(200);
  });

  it('answers /_image with the image type of each image it is asked for, not as HTML', async () => {
    const png = await fetch(`${base}/_image?href=${encodeURIComponent('/icon-192.png')}&w=192&h=192&f=png`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toMatch(/^image\/png/);
    const pngBytes = new Uint8Array(await png.arrayBuffer());
    expect([...pngBytes.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    const jpeg = await fetch(`${base}/_image?href=${encodeURIComponent('/og-default.jpg')}&w=1200&h=630&f=jpeg`);
    expect(jpeg.status).toBe(200);
    expect(jpeg.headers.get('content-type')).toMatch(/^image\/jpeg/);
    expect([...new Uint8Array(await jpeg.arrayBuffer()).subarray(0, 2)]).toEqual([0xff, 0xd8]);
  });

  it('answers an uncached long-tail page 503 with Retry-After while the database is unreachable, never its not-found screen', async () => {
    // The same build's page code over a database reached by HTTP, as a Node server in front of Turso.
    const libsql = await startLibsqlHttpServer({ file: join(dir, 'site.db') });
    const remote = await openDb({ url: libsql.url });
    try {
      const pages = createOnDemandPages({
        entry: () => server.builder.serverEntry(),
        db: remote.db,
        supportEmail: 'support@localhost',
      });
      const app = new Hono().get(
        '*',
        async (c) => (await createStaticHandler(clientDir, { onDemand: (r) => pages.render(r) })(c)) ?? c.notFound(),
      );
      const tail = ranked.at(-4)!;
      libsql.setUnavailable(true);
      const down = await app.request(`http://127.0.0.1/server/${tail.slug}`);
      expect(down.status).toBe(503);
      expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await down.text()).not.toContain('Server not found');
      libsql.setUnavailable(false);
      const back = await app.request(`http://127.0.0.1/server/${tail.slug}`);
      expect(back.status).toBe(200);
    } finally {
      remote.client.close();
      await libsql.stop();
    }
  });
});

describe("a listing's reviews past its first page, a page of the site (Node)", () => {
  const MINUTE = 60_000;
  /** `n` public reviews of the listing by new accounts, the newest an hour old, a minute apart: body `${label} review i`. */
  async function seedReviews(serverId: number, n: number, label: string) {
    for (let i = 0; i < n; i++) {
      const [account] = await db
        .insert(ownerUsers)
        .values({ discord_user_id: `${serverId}00${i}`, username: `${label}${i}` })
        .returning();
      await db.insert(reviews).values({
        server_id: serverId,
        account_id: account!.id,
        rating: 1 + (i % 5),
        body: `${label} review ${i}, long enough to be a review.`,
        display_name: `${label} member ${i}`,
        member_since: new Date(Date.now() - 90 * 86_400_000).toISOString(),
        created_at: new Date(Date.now() - (60 + i) * MINUTE).toISOString(),
      });
    }
  }
  const hrefOf = (html: string, attr: string) =>
    new RegExp(`<a [^>]*href="([^"]+)"[^>]*${attr}|<a [^>]*${attr}[^>]*href="([^"]+)"`)
      .exec(html)
      ?.slice(1)
      .find(Boolean)
      ?.replaceAll('&amp;', '&');
  /** The review bodies of a page, in the order it shows them. */
  const bodies = (html: string, label: string) =>
    [...html.matchAll(new RegExp(`${label} review (\\d+), long enough`, 'g'))].map((m) => Number(m[1]));

  it('links the listing page to /server/{slug}/reviews, a page in the site layout with its own title, canonical URL and links either side', async () => {
    const tail = ranked.at(-5)!;
    await seedReviews(tail.id, 23, 'Tail');
    server.onDemand.invalidate();
    const listing = await (await fetch(`${base}/server/${tail.slug}`)).text();
    expect(bodies(listing, 'Tail')).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const older = hrefOf(listing, 'data-reviews-older')!;
    expect(older).toMatch(new RegExp(`^/server/${tail.slug}/reviews\\?before=`));

    const res = await fetch(`${base}${older}`);
    expect(res.status).toBe(200);
    // The headers of every other page (a prerendered one's: HTML revalidated on every visit).
    const staticRes = await fetch(`${base}/server/${ranked[1]!.slug}`);
    await staticRes.text();
    expect(visible(res)).toEqual(visible(staticRes));
    const html = await res.text();
    expect(html).toContain(
      `<title>${tail.name.replaceAll('&', '&amp;')}: member reviews 11 to 20 of 23 | GuildRank</title>`,
    );
    expect(html).toContain('<meta name="robots" content="index, follow">');
    expect(html).toContain(`<link rel="canonical" href="http://localhost:4321${older.replaceAll('&', '&amp;')}">`);
    // The site's header and footer, the listing's breadcrumb and the way back.
    expect(html).toMatch(/<header[\s>]/);
    expect(html).toMatch(/<footer[\s>]/);
    expect(html).toContain(`<a href="/server/${tail.slug}">← Back to`);
    expect(bodies(html, 'Tail')).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect(html).toContain('Reviews 11 to 20 of 23.');
    const newer = hrefOf(html, 'data-reviews-newer')!;
    expect(newer).toMatch(new RegExp(`^/server/${tail.slug}/reviews\\?after=`));
    expect(html).toMatch(/<a [^>]*rel="prev"[^>]*data-reviews-newer/);
    expect(html).toMatch(/<a [^>]*rel="next"[^>]*data-reviews-older/);

    // Older again: the last three, with no link further back; newer from there: the page before.
    const last = await (await fetch(`${base}${hrefOf(html, 'data-reviews-older')}`)).text();
    expect(bodies(last, 'Tail')).toEqual([20, 21, 22]);
    // Hidden, with neither href nor rel (an <a> without href may not carry rel: the HTML check).
    expect(last).toMatch(/<a class="btn btn-outline" data-reviews-older hidden>/);
    expect(bodies(await (await fetch(`${base}${hrefOf(last, 'data-reviews-newer')}`)).text(), 'Tail')).toEqual([
      10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
    ]);
    // And newer from the second page: the first ten.
    expect(bodies(await (await fetch(`${base}${newer}`)).text(), 'Tail')).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('keeps a reviews page in the cache by its key, and never a redirect, a 400 or a 404', async () => {
    const tail = ranked.at(-6)!;
    await seedReviews(tail.id, 12, 'Cached');
    const [first] = await db
      .select({ created_at: reviews.created_at, id: reviews.id })
      .from(reviews)
      .where(eq(reviews.body, 'Cached review 9, long enough to be a review.'));
    const key = encodeURIComponent(`${first!.created_at}~${first!.id}`);
    server.onDemand.invalidate();
    const page = await fetch(`${base}/server/${tail.slug}/reviews?before=${key}`);
    expect(bodies(await page.text(), 'Cached')).toEqual([10, 11]);
    expect(server.onDemand.size()).toBe(1);
    await (await fetch(`${base}/server/${tail.slug}/reviews?before=${key}&utm_source=x`)).text();
    expect(server.onDemand.size()).toBe(1);
    await (await fetch(`${base}/server/${tail.slug}/reviews?after=${key}`)).text();
    expect(server.onDemand.size()).toBe(2);

    // Without a key: the listing's own reviews.
    const bare = await fetch(`${base}/server/${tail.slug}/reviews`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe(`/server/${tail.slug}#reviews`);
    // A key that is not one: a page that says so, in the site's layout, not indexed, not kept.
    for (const query of ['before=yesterday', `before=${key}&after=${key}`]) {
      const bad = await fetch(`${base}/server/${tail.slug}/reviews?${query}`);
      expect(bad.status, query).toBe(400);
      expect(bad.headers.get('content-type')).toMatch(/^text\/html/);
      const text = await bad.text();
      expect(text).toContain('<h1>This link to reviews is not valid</h1>');
      expect(text).toContain('<meta name="robots" content="noindex, follow">');
      expect(text).not.toContain('rel="canonical"');
      expect(text).toContain(`href="/server/${tail.slug}#reviews"`);
    }
    // No listing there (none at all, or a hidden one): the server-not-found screen, whatever the key.
    const hidden = ranked.at(-7)!;
    await setServerActive(db, hidden.id, false);
    for (const slug of ['no-such-server-here', hidden.slug]) {
      for (const query of [`before=${key}`, 'before=yesterday']) {
        const res = await fetch(`${base}/server/${slug}/reviews?${query}`);
        expect(res.status, `${slug} ${query}`).toBe(404);
        expect(await res.text()).toContain('Server not found');
      }
    }
    expect(server.onDemand.size()).toBe(2);

    // The old address of such a page (under /api) moves there for good, key and all.
    const old = await fetch(`${base}/api/reviews/servers/${tail.id}/page?before=${key}`, { redirect: 'manual' });
    expect(old.status).toBe(301);
    expect(old.headers.get('location')).toBe(`/server/${tail.slug}/reviews?before=${key}`);
    const oldBare = await fetch(`${base}/api/reviews/servers/${tail.id}/page`, { redirect: 'manual' });
    expect(oldBare.status).toBe(301);
    expect(oldBare.headers.get('location')).toBe(`/server/${tail.slug}#reviews`);
  });

  it("shows no review a moderator hid on the listing's cached reviews pages from the next request", async () => {
    const tail = ranked.at(-8)!;
    await seedReviews(tail.id, 12, 'Hideable');
    const [ninth, eleventh] = await Promise.all(
      [9, 11].map(async (i) => {
        const [row] = await db
          .select({ created_at: reviews.created_at, id: reviews.id })
          .from(reviews)
          .where(eq(reviews.body, `Hideable review ${i}, long enough to be a review.`));
        return row!;
      }),
    );
    const path = `/server/${tail.slug}/reviews?before=${encodeURIComponent(`${ninth!.created_at}~${ninth!.id}`)}`;
    server.onDemand.invalidate();
    expect(bodies(await (await fetch(`${base}${path}`)).text(), 'Hideable')).toEqual([10, 11]);
    expect(server.onDemand.size()).toBe(1);
    const login = await fetch(`${base}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ email: 'ops@example.com', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const { csrfToken } = (await login.json()) as { csrfToken: string };
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const hide = await fetch(`${base}/api/admin/reviews/${eleventh!.id}`, {
      method: 'POST',
      headers: { cookie, origin: base, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'hide', reason: 'personal information' }),
    });
    expect(hide.status).toBe(200);
    // The hide asked for a rebuild, which forgets every cached page: the next request reads it again.
    const html = await (await fetch(`${base}${path}`)).text();
    expect(bodies(html, 'Hideable')).toEqual([10]);
    expect(html).toContain('personal information');
    await server.builder.idle();
  }, 120_000);

  it('is open to crawlers (robots.txt) and, as no per-listing subpage is, not in the sitemap', async () => {
    const tail = ranked.at(-5)!;
    const robots = await (await fetch(`${base}/robots.txt`)).text();
    const path = `/server/${tail.slug}/reviews`;
    const disallowed = [...robots.matchAll(/^Disallow: (\S+)$/gm)].map((m) => m[1]!);
    expect(disallowed.length).toBeGreaterThan(0);
    expect(disallowed.filter((prefix) => path.startsWith(prefix))).toEqual([]);
    const index = await (await fetch(`${base}/sitemap-index.xml`)).text();
    const files = [...index.matchAll(/<loc>[^<]*(\/sitemap-[^<]+\.xml)<\/loc>/g)].map((m) => m[1]!);
    const all = (await Promise.all(files.map(async (f) => (await fetch(`${base}${f}`)).text()))).join('');
    expect(all).toContain(`/server/${tail.slug}</loc>`);
    expect(all).not.toContain('/reviews');
  });
});
