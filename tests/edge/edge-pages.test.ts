// The on-demand pages' cache on the Worker (functions/_app/edge-pages.ts), with a cache of the
// Cache API's shape kept in a Map: what is kept, under which key, and what a change deletes.
// tests/edge/on-demand.test.ts runs the same code in workerd against the real Cache API.
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getServerById, getServerBySlug } from '../../db/queries/servers';
import type { RebuildStatus, RebuildTrigger } from '../../functions/_app/context';
import {
  createEdgePages,
  type EdgePagesOptions,
  edgeRenderGate,
  etagOf,
  HTML_HEADERS,
  ON_DEMAND_CACHE_SECONDS,
  PurgingRebuildTrigger,
  REVIEWS_PAGE_CACHE_SECONDS,
  REVIEWS_VERSION_SECONDS,
} from '../../functions/_app/edge-pages';
import { BindingRateLimitStore, RATE_LIMITS } from '../../functions/_app/lib/rate-limits';
import { RenderRefused, renderRefusedAnswer } from '../../functions/_app/lib/render-gate';
import { workerEntry } from '../../functions/worker';
import { startLibsqlHttpServer } from '../fixtures/libsql-http-server';
import { createTestDb, type TestDb } from '../helpers/db';
import { premiumPlacement } from '../helpers/placements';

let tdb: TestDb;
beforeAll(async () => {
  tdb = await createTestDb();
});
afterAll(() => tdb.cleanup());

/** The Cache API's match/put/delete over a Map, keeping what was stored. */
function mapCache() {
  const stored = new Map<string, { body: string; cacheControl: string | null; etag: string | null }>();
  return {
    stored,
    match: async (key: string) => {
      const hit = stored.get(key);
      return hit ? new Response(hit.body, { headers: hit.etag ? { etag: hit.etag } : {} }) : undefined;
    },
    put: async (key: string, response: Response) => {
      const { headers } = response;
      stored.set(key, {
        body: await response.text(),
        cacheControl: headers.get('cache-control'),
        etag: headers.get('etag'),
      });
    },
    delete: async (key: string) => stored.delete(key),
  };
}

/** Pages whose renderer answers `pages[path]` (a missing path has no page) and counts its renders. */
function setup(pages: Record<string, string>, overrides: Partial<EdgePagesOptions> = {}) {
  const cache = mapCache();
  const renders: string[] = [];
  const pending: Promise<unknown>[] = [];
  const edge = createEdgePages({
    render: async (request) => {
      const path = new URL(request.url).pathname;
      renders.push(path);
      const html = pages[path];
      if (path === '/_image') {
        // An endpoint (Astro's image route): its own type, its answer depending on the query.
        return new Response(new URL(request.url).search, { headers: { 'content-type': 'image/png' } });
      }
      return html === undefined
        ? new Response(null, { status: 404 })
        : new Response(html, { headers: { 'content-type': 'text/html' } });
    },
    db: tdb.db,
    supportEmail: 'support@guildrank.example',
    origin: 'https://guildrank.example',
    version: 'v1',
    cache,
    ...overrides,
  });
  /** GETs `path` and waits for what the answer left to finish (the cache put). */
  const get = async (path: string, method = 'GET', headers: Record<string, string> = {}, client = '') => {
    const request = new Request(`https://guildrank.example${path}`, { method, headers });
    const res = await edge.page(request, (p) => pending.push(p), client);
    await Promise.all(pending.splice(0));
    return res;
  };
  return { edge, cache, renders, get };
}

describe('on-demand pages on the Worker', () => {
  it("renders a page once, then answers it from the cache with a prerendered page's headers", async () => {
    const { get, renders, cache } = setup({ '/server/a': '<p>A</p>' });
    const etag = await etagOf('<p>A</p>');
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const first = await get('/server/a');
    expect(first?.status).toBe(200);
    expect(await first?.text()).toBe('<p>A</p>');
    expect(Object.fromEntries(first?.headers ?? [])).toEqual({ ...HTML_HEADERS, etag });
    const again = await get('/server/a?utm_source=x');
    expect(await again?.text()).toBe('<p>A</p>');
    expect(Object.fromEntries(again?.headers ?? [])).toEqual({ ...HTML_HEADERS, etag });
    // A browser that has it: 304, as the static assets answer (a weak validator matches too).
    for (const validator of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const revalidated = await get('/server/a', 'GET', { 'if-none-match': validator });
      expect(revalidated?.status).toBe(304);
      expect(revalidated?.headers.get('etag')).toBe(etag);
    }
    expect((await get('/server/a', 'GET', { 'if-none-match': '"other"' }))?.status).toBe(200);
    expect(renders).toEqual(['/server/a']);
    // Kept under the site's origin and the deployment, for ON_DEMAND_CACHE_SECONDS.
    expect([...cache.stored]).toEqual([
      [
        'https://guildrank.example/server/a?deployment=v1',
        { body: '<p>A</p>', cacheControl: `public, max-age=${ON_DEMAND_CACHE_SECONDS}`, etag },
      ],
    ]);
  });

  it('never caches a path without a page, so a listing approved later is live on its next request', async () => {
    const pages: Record<string, string> = {};
    const { get, renders, cache } = setup(pages);
    expect(await get('/server/later')).toBeNull();
    expect(cache.stored.size).toBe(0);
    pages['/server/later'] = '<p>Later</p>';
    expect(await (await get('/server/later'))?.text()).toBe('<p>Later</p>');
    expect(renders).toEqual(['/server/later', '/server/later']);
  });

  it('answers HEAD without a body and leaves other methods to the app', async () => {
    const { get } = setup({ '/server/a': '<p>A</p>' });
    const head = await get('/server/a', 'HEAD');
    expect(head?.status).toBe(200);
    expect(await head?.text()).toBe('');
    expect(await get('/server/a', 'POST')).toBeNull();
  });

  it('keeps nothing of one deployment for the next, and nothing without a version', async () => {
    const cache = mapCache();
    const first = setup({ '/server/a': 'old build' }, { cache, version: 'v1' });
    await first.get('/server/a');
    const next = setup({ '/server/a': 'new build' }, { cache, version: 'v2' });
    expect(await (await next.get('/server/a'))?.text()).toBe('new build');
    const unversioned = setup({ '/server/a': 'A' }, { version: undefined });
    await unversioned.get('/server/a');
    await unversioned.get('/server/a');
    expect(unversioned.renders).toHaveLength(2);
    expect(unversioned.cache.stored.size).toBe(0);
  });

  it('deletes the pages a change names, then asks the deploy hook as before', async () => {
    const pages: Record<string, string> = { '/server/a': 'A v1', '/server/b': 'B v1' };
    const { edge, get, renders } = setup(pages);
    await get('/server/a');
    await get('/server/b');
    const asked: [string, readonly string[] | undefined][] = [];
    const hook: RebuildTrigger = {
      request: (reason, paths) => void asked.push([reason, paths]),
      status: (): RebuildStatus => ({
        state: 'queued',
        liveSince: null,
        lastDurationMs: null,
        lastError: null,
        lastReason: null,
      }),
    };
    const trigger = new PurgingRebuildTrigger(hook, edge);
    pages['/server/a'] = 'A v2';
    pages['/server/b'] = 'B v2';
    trigger.request('edited a', ['/server/a']);
    await trigger.settled();
    expect(asked).toEqual([['edited a', ['/server/a']]]);
    expect(trigger.status().state).toBe('queued');
    expect(await (await get('/server/a'))?.text()).toBe('A v2');
    // Not named: still the cached copy until it expires.
    expect(await (await get('/server/b'))?.text()).toBe('B v1');
    expect(renders).toEqual(['/server/a', '/server/b', '/server/a']);
  });

  it('passes an endpoint answer through with its own type, per full URL, and never caches it as a page', async () => {
    const { cache, get } = setup({});
    const a = await get('/_image?href=/a.png');
    expect(a?.headers.get('content-type')).toBe('image/png');
    expect(await a?.text()).toBe('?href=/a.png');
    const b = await get('/_image?href=/b.png');
    expect(await b?.text()).toBe('?href=/b.png');
    expect(cache.stored.size).toBe(0);
  });

  it("keeps a listing's reviews page by its path and key (a minute), and passes its redirect and its 400 through uncached", async () => {
    const renders: string[] = [];
    const { get, cache } = setup(
      {},
      {
        // As src/pages/server/[slug]/reviews.astro answers: a page per key, a 301 without one, a 400 for a bad one.
        render: async (request) => {
          const url = new URL(request.url);
          renders.push(url.pathname + url.search);
          const key = url.searchParams.get('before');
          if (key === null) return new Response(null, { status: 301, headers: { location: '/server/a#reviews' } });
          if (!key.includes('~')) {
            return new Response('<h1>This link to reviews is not valid</h1>', {
              status: 400,
              headers: { 'content-type': 'text/html', 'cache-control': 'no-store' },
            });
          }
          return new Response(`<p>before ${key}</p>`, { headers: { 'content-type': 'text/html' } });
        },
      },
    );
    const k1 = encodeURIComponent('2026-05-01T10:00:00.000Z~42');
    const k2 = encodeURIComponent('2026-04-01T10:00:00.000Z~7');
    expect(await (await get(`/server/a/reviews?before=${k1}`))?.text()).toBe(
      '<p>before 2026-05-01T10:00:00.000Z~42</p>',
    );
    expect(await (await get(`/server/a/reviews?before=${k2}`))?.text()).toBe(
      '<p>before 2026-04-01T10:00:00.000Z~7</p>',
    );
    // The same key again, with a parameter the page does not read: from the cache.
    const again = await get(`/server/a/reviews?utm_source=x&before=${k1}`);
    expect(await again?.text()).toBe('<p>before 2026-05-01T10:00:00.000Z~42</p>');
    expect(again?.headers.get('cache-control')).toBe(HTML_HEADERS['cache-control']);
    expect(again?.headers.get('etag')).toBe(await etagOf('<p>before 2026-05-01T10:00:00.000Z~42</p>'));
    expect(renders).toEqual([`/server/a/reviews?before=${k1}`, `/server/a/reviews?before=${k2}`]);
    // Under the listing's reviews-pages version, kept beside them (what a purge of the listing deletes).
    const [versionKey, version] = [...cache.stored][0]!;
    expect([versionKey, version?.cacheControl]).toEqual([
      'https://guildrank.example/server/a/reviews?reviews-version&deployment=v1',
      `public, max-age=${REVIEWS_VERSION_SECONDS}`,
    ]);
    const v = encodeURIComponent(version!.body);
    expect(v).toMatch(/^[0-9a-f-]{36}$/);
    expect([...cache.stored].slice(1).map(([key, { cacheControl }]) => [key, cacheControl])).toEqual([
      [
        `https://guildrank.example/server/a/reviews?before=${k1}&reviews-version=${v}&deployment=v1`,
        `public, max-age=${REVIEWS_PAGE_CACHE_SECONDS}`,
      ],
      [
        `https://guildrank.example/server/a/reviews?before=${k2}&reviews-version=${v}&deployment=v1`,
        `public, max-age=${REVIEWS_PAGE_CACHE_SECONDS}`,
      ],
    ]);
    const moved = await get('/server/a/reviews');
    expect(moved?.status).toBe(301);
    expect(moved?.headers.get('location')).toBe('/server/a#reviews');
    const bad = await get('/server/a/reviews?before=yesterday');
    expect(bad?.status).toBe(400);
    expect(await bad?.text()).toContain('not valid');
    expect((await get('/server/a/reviews?before=yesterday'))?.status).toBe(400);
    expect(cache.stored.size).toBe(3);
    expect(renders.slice(2)).toEqual([
      '/server/a/reviews',
      '/server/a/reviews?before=yesterday',
      '/server/a/reviews?before=yesterday',
    ]);
  });

  it("clears a listing's reviews pages, whatever their keys, when a change names the listing's page, and no other listing's", async () => {
    const bodies: Record<string, string> = { a: 'review 1 shown', b: 'review 9 shown' };
    const renders: string[] = [];
    const { edge, get } = setup(
      {},
      {
        render: async (request) => {
          const url = new URL(request.url);
          renders.push(url.pathname + url.search);
          const listing = url.pathname.split('/')[2]!;
          return new Response(`<p>${bodies[listing]} before ${url.searchParams.get('before')}</p>`, {
            headers: { 'content-type': 'text/html' },
          });
        },
      },
    );
    // Two keys of listing a (one as the pager writes it, one a visitor wrote by hand), one of b.
    const k1 = encodeURIComponent('2026-05-01T10:00:00.000Z~42');
    const k2 = encodeURIComponent('2026-04-01T10:00:00Z~7');
    const paths = [
      `/server/a/reviews?before=${k1}`,
      `/server/a/reviews?before=${k2}`,
      `/server/b/reviews?before=${k1}`,
    ];
    const texts = async () => Promise.all(paths.map(async (p) => (await get(p))?.text()));
    expect((await texts()).every((t) => t?.includes('shown'))).toBe(true);
    expect(await texts()).toHaveLength(3);
    expect(renders).toHaveLength(3);
    // A moderator hides review 1 of listing a: the change names /server/a (routes/admin/reviews.ts).
    bodies.a = 'review 1 hidden';
    bodies.b = 'review 9 hidden';
    const trigger = new PurgingRebuildTrigger(
      {
        request: () => {},
        status: () => ({ state: 'idle', liveSince: null, lastDurationMs: null, lastError: null, lastReason: null }),
      },
      edge,
    );
    trigger.request('review hide on a', ['/server/a']);
    await trigger.settled();
    const [a1, a2, b1] = await texts();
    expect(a1).toContain('review 1 hidden');
    expect(a2).toContain('review 1 hidden');
    // Not named: b's reviews page is still the cached copy until it expires.
    expect(b1).toContain('review 9 shown');
    expect(renders).toHaveLength(5);
    // Kept again under the new version: the next requests are answered from the cache.
    await texts();
    expect(renders).toHaveLength(5);
  });

  it("limits each client's renders through the RATE_LIMIT_RENDERS binding; cached pages are never counted", async () => {
    // The Rate Limiting binding's shape: yes while a key has asked at most `limit` times.
    const limit = 2;
    const asked: string[] = [];
    const binding = {
      limit: async ({ key }: { key: string }) => {
        asked.push(key);
        return { success: asked.filter((k) => k === key).length <= limit };
      },
    };
    const store = new BindingRateLimitStore({ RATE_LIMIT_RENDERS: binding });
    expect(store.missing).not.toContain('RATE_LIMIT_RENDERS');
    const pages = Object.fromEntries(['a', 'b', 'c', 'd'].map((x) => [`/server/${x}`, `<p>${x}</p>`]));
    const { get, renders } = setup(pages, { gate: edgeRenderGate(store, true) });
    expect((await get('/server/a', 'GET', {}, 'flooder'))?.status).toBe(200);
    expect((await get('/server/b', 'GET', {}, 'flooder'))?.status).toBe(200);
    const refused = await get('/server/c', 'GET', {}, 'flooder').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RenderRefused);
    const { status, retryAfterS } = refused as RenderRefused;
    // The binding says only no: Retry-After is its whole period (60 s for the one-minute rule).
    expect({ status, retryAfterS }).toEqual({ status: 429, retryAfterS: 60 });
    // Another client renders at once; a page already cached is answered to the flooder, uncounted.
    expect(await (await get('/server/d', 'GET', {}, 'reader'))?.text()).toBe('<p>d</p>');
    expect(await (await get('/server/a', 'GET', {}, 'flooder'))?.text()).toBe('<p>a</p>');
    expect(asked).toEqual(['flooder', 'flooder', 'flooder', 'reader']);
    expect(renders).toEqual(['/server/a', '/server/b', '/server/d']);
    expect(RATE_LIMITS.renders.windowMs).toBe(60_000);

    // The answer edge.ts (and static.ts on Node) gives a refused render.
    const answer = renderRefusedAnswer(refused as RenderRefused);
    expect(answer.status).toBe(429);
    expect(Object.fromEntries(answer.headers)).toMatchObject({ 'retry-after': '60', 'cache-control': 'no-store' });
    expect(await answer.text()).toMatch(/Too many pages/);
    const busy = renderRefusedAnswer(new RenderRefused(503, 2));
    expect([busy.status, busy.headers.get('retry-after')]).toEqual([503, '2']);

    // RATE_LIMITS=false: nothing is counted.
    asked.length = 0;
    const open = setup(pages, { gate: edgeRenderGate(store, false) });
    for (const x of ['a', 'b', 'c', 'd'])
      expect((await open.get(`/server/${x}`, 'GET', {}, 'flooder'))?.status).toBe(200);
    expect(asked).toEqual([]);
  });
});

describe("the Worker's scheduled changes", () => {
  it('delete the cached pages they name, as a change made through a request does (the placement clock)', async () => {
    // A listing whose paid Premium slot has started: the placement clock of the next minute sets its flag.
    const now = Date.now();
    const listing = await premiumPlacement(tdb, 'Clock Placement Lounge', now - 60_000, now + 30 * 86_400_000);
    // The Worker reaches the database over HTTP, and calls a deploy hook.
    const libsql = await startLibsqlHttpServer({ file: tdb.url.replace(/^file:/, '') });
    let hookPosts = 0;
    const hook = createHttpServer((req, res) => {
      hookPosts++;
      req.resume();
      res.writeHead(204).end();
    });
    await new Promise<void>((ok) => hook.listen(0, '127.0.0.1', ok));
    try {
      const cache = mapCache();
      const renders: string[] = [];
      const worker = workerEntry({
        // The page states what the database says of the listing now.
        render: async (request, onDemand) => {
          const path = new URL(request.url).pathname;
          const row = await getServerBySlug(onDemand.db, path.replace(/^\/server\//, ''));
          if (!row) return new Response(null, { status: 404 });
          renders.push(path);
          const html = `<p>${row.name}: ${row.is_premium ? 'Premium' : 'standard'}</p>`;
          return new Response(html, { headers: { 'content-type': 'text/html' } });
        },
        cache,
      });
      const bindings = {
        ASSETS: { fetch: async () => new Response(null, { status: 404 }) },
        DATABASE_URL: libsql.url,
        SITE_URL: 'http://guildrank.test',
        CF_VERSION_METADATA: { id: 'v1' },
        REBUILD_HOOK_URL: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`,
      };
      const pending: Promise<unknown>[] = [];
      const ctx = { waitUntil: (p: Promise<unknown>) => void pending.push(p) };
      const settle = async () => {
        while (pending.length) await Promise.all(pending.splice(0));
      };
      const page = async () => {
        const res = await worker.fetch(new Request(`http://guildrank.test/server/${listing.slug}`), bindings, ctx);
        const body = await res.text();
        await settle();
        return body;
      };
      expect(await page()).toContain('Clock Placement Lounge: standard');
      expect(await page()).toContain('Clock Placement Lounge: standard');
      expect(renders).toHaveLength(1);
      // The every-minute Cron Trigger: the clock starts the slot and names the listing's page.
      worker.scheduled({ cron: '* * * * *', scheduledTime: now }, bindings, ctx);
      await settle();
      expect((await getServerById(tdb.db, listing.id))?.is_premium).toBe(true);
      expect(hookPosts).toBeGreaterThan(0);
      // Gone from the cache at once: the next request renders it from the database.
      expect(await page()).toContain('Clock Placement Lounge: Premium');
      expect(renders).toHaveLength(2);
    } finally {
      await libsql.stop();
      await new Promise((ok) => hook.close(ok));
    }
  });
});
