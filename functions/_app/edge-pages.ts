import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { dbHealth } from '../../db/queries/health';
import type { LiveSettings, OnDemandContext } from '../../src/data/site-data';
import { moveIslandStyle } from '../../src/integrations/island-style-html';
import { isReviewsPagePath, readReviewsQuery } from '../../src/lib/reviews/cursor';
import { SEARCH_PAGE } from '../../src/lib/search-page';
import type { ChangeScope, PreparedChange, RebuildStatus, RebuildTrigger } from './context';
import { RATE_LIMITS, type RateLimitStore } from './lib/rate-limits';
import { createRenderGate, type RenderGate, RenderRefused } from './lib/render-gate';

/**
 * Renders the page at a request's path with the build's on-demand routes (site-worker.ts: the
 * Astro app bundled into the Worker), or undefined when none of them has a page there.
 */
export type EdgeRenderer = (request: Request, onDemand: OnDemandContext) => Promise<Response | undefined>;

/**
 * What the build's on-demand routes make of a request: a page's HTML (the build's island-style
 * step applied, as a prerendered page is written), or another answer of theirs as it is (an
 * endpoint such as Astro's `/_image`, with its own content type; a page's own redirect; a page's
 * own 400 for a query it cannot read, such as a reviews page's bad key). Never cached as a page.
 */
export type Rendered = { html: string } | { response: Response };

/** The database could not be read while a page was rendered: answered 503, never a not-found screen. */
export class PageUnavailableError extends Error {
  constructor(path: string, options?: ErrorOptions) {
    super(`The page ${path} could not be rendered: the database is unreachable`, options);
    this.name = 'PageUnavailableError';
  }
}

/** Seconds a visitor (or a crawler) is asked to wait before asking again for a page the database could not give. */
export const PAGE_RETRY_AFTER_S = 30;

/** The answer while the database is away: 503 with Retry-After, so a crawler keeps the page and comes back. */
export function pageUnavailable(): Response {
  return new Response(
    '<!doctype html><html lang="en"><meta charset="utf-8"><title>Temporarily unavailable</title><h1>Temporarily unavailable</h1><p>This page cannot be shown right now. Please try again in a minute.</p></html>',
    {
      status: 503,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'retry-after': String(PAGE_RETRY_AFTER_S),
      },
    },
  );
}

/**
 * The page at `request`'s path from the build's on-demand routes (see Rendered), or null when they
 * have none there: the one render step of both seams (createEdgePages here, createOnDemandPages
 * in on-demand.ts on Node). A render that failed (Astro answers a page that threw with a 500) is
 * a PageUnavailableError when the database cannot be read, else an error for the app's onError.
 */
export async function renderPage(
  render: EdgeRenderer,
  request: Request,
  context: Omit<OnDemandContext, 'now'>,
): Promise<Rendered | null> {
  const rendered = await renderAnswer(render, request, context);
  if (rendered === null || 'response' in rendered) return rendered;
  return { html: moveIslandStyle(await rendered.page.text()) };
}

/**
 * renderPage's answer before its HTML is read: the page's own Response (200, text/html, the
 * island-style step not yet applied), another answer of the routes, or null. On Node the seam
 * reads the page's bytes as they are (on-demand.ts), without decoding them to a string and
 * encoding them again.
 */
export async function renderAnswer(
  render: EdgeRenderer,
  request: Request,
  context: Omit<OnDemandContext, 'now'>,
): Promise<{ page: Response } | { response: Response } | null> {
  const rendered = await render(new Request(request.url, { method: 'GET' }), { ...context, now: new Date() });
  const path = new URL(request.url).pathname;
  if (rendered && rendered.status >= 500) {
    await rendered.body?.cancel();
    const health = await dbHealth(context.db);
    if (health !== 'up') throw new PageUnavailableError(path, { cause: health });
    throw new Error(`The on-demand page ${path} answered ${rendered.status}`);
  }
  if (!rendered) return null;
  const html = (rendered.headers.get('content-type') ?? '').startsWith('text/html');
  // A page that moved its visitor on (its Location), or refused its query with a page saying why.
  if (
    (rendered.status >= 300 && rendered.status < 400 && rendered.headers.has('location')) ||
    (rendered.status === 400 && html)
  ) {
    return { response: rendered };
  }
  if (rendered.status !== 200) {
    await rendered.body?.cancel();
    return null;
  }
  if (!html) return { response: rendered };
  return { page: rendered };
}

/** The Workers Cache API's default cache, as far as this module uses it. */
export interface EdgeCache {
  match(key: string): Promise<Response | undefined>;
  put(key: string, response: Response): Promise<void>;
  delete(key: string): Promise<boolean>;
}

/**
 * How long a rendered page is kept in a data center's cache. A change made through the Worker (a
 * request's or a Cron Trigger's: edge.ts edgeServices) deletes the changed listing's page there at
 * once, but the Cache API is per data center: the copies other data centers hold (and, for a
 * Cron Trigger, the ones where visitors are) expire after this many seconds. A change with no page named
 * (a refresh pass, a rebuild from the console) and the listing pages a change moves are seen
 * everywhere within it too. (A global purge would take Workers Cache, `ctx.cache.purge`, which
 * caches every answer of the Worker by its Cache-Control, or the zone's purge API and a token.)
 */
export const ON_DEMAND_CACHE_SECONDS = 300;

/**
 * How long a listing's reviews page (src/pages/server/[slug]/reviews.astro) is kept by either
 * seam's cache: its list of reviews from a key stays the same as reviews are written, but its
 * counts ("Reviews 11 to 20 of 25", the average) and its newest page take new ones, which ask for
 * no rebuild and so clear no cache. A change that removes a review (a delete, a hide) names the
 * listing's page, and clears its reviews pages with it: on Node the whole cache (as every change
 * does), on the Worker the listing's reviews-pages version in this data center (createEdgePages),
 * so there they are at most this old only in the other data centers.
 */
export const REVIEWS_PAGE_CACHE_SECONDS = 60;

/** What a listing's reviews page path ends with (reviewsPagePath). */
const REVIEWS_SUFFIX = '/reviews';

/**
 * What a page rendered on request at `url` is kept by in the seams' caches (on-demand.ts on Node,
 * createEdgePages here), and for how long (`seconds`; absent: the seam's own rule): its path, as
 * every page but two ignores its query; a listing's reviews page by its path and its key (written
 * the one way), with `listing`, the path of the listing's page, whose purge clears its reviews
 * pages too; null for a page never kept (the search page answers its query; a reviews page
 * without a key it can read answers a redirect or a 400, never a page).
 */
export function pageCacheRule(url: URL): { key: string; seconds?: number; listing?: string } | null {
  const path = url.pathname;
  if (path === SEARCH_PAGE) return null;
  if (!isReviewsPagePath(path)) return { key: path };
  const read = readReviewsQuery(url.searchParams);
  return read.kind === 'page'
    ? {
        key: `${path}?${read.query}`,
        seconds: REVIEWS_PAGE_CACHE_SECONDS,
        listing: path.slice(0, -REVIEWS_SUFFIX.length),
      }
    : null;
}

/** A listing page's path (`/server/{slug}`), whose reviews pages a purge of it clears. */
const isListingPagePath = (path: string) => /^\/server\/[^/]+$/.test(path);

/**
 * How long a data center keeps a listing's reviews-pages version (createEdgePages). A version
 * gone (expired or evicted) is made anew, so its pages are rendered again once: no page is
 * ever kept past a purge by a version coming back.
 */
export const REVIEWS_VERSION_SECONDS = 86_400;

/**
 * What an HTML page answered from the static assets carries besides the security headers
 * (which the app's middleware adds to every answer of the Worker, the policy of csp-policy.txt):
 * a visitor and a crawler get the same for an on-demand page.
 */
export const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'public, max-age=0, must-revalidate',
} as const;

/** A strong ETag of a page in the static assets' shape: 32 hex digits of a digest of its bytes, quoted. */
export async function etagOf(html: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(html)));
  const hex = Array.from(digest.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
  return `"${hex}"`;
}

/** Whether an If-None-Match header names `etag` (weak or strong, or `*`), as the assets layer compares. */
function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/**
 * `LiveSettings`: the database and this deployment's settings the build's facts carry
 * (site-data.ts deploymentFacts); absent: the defaults.
 */
export interface EdgePagesOptions extends LiveSettings {
  render: EdgeRenderer;
  /**
   * The deployed Worker version (the version_metadata binding): part of every cache key, so a new
   * deployment never answers with HTML of the old one (whose asset hashes are gone). Undefined: no
   * caching at all.
   */
  version: string | undefined;
  /** SITE_URL: the origin of the cache keys. */
  origin: string;
  /** The data center's cache; undefined where there is none (every page is rendered). */
  cache: EdgeCache | undefined;
  /** The limit on renders (lib/render-gate.ts, edgeRenderGate): a cached page never passes through it. */
  gate?: RenderGate | undefined;
}

/**
 * The Worker's render gate: each client's renders counted against RATE_LIMITS.renders in the
 * Worker's rate-limit store (the RATE_LIMIT_RENDERS binding, shared by the isolates of a location;
 * RATE_LIMITS=false counts nothing), at most PER_CLIENT_IN_FLIGHT of one client at once, and the
 * renders of this isolate bounded with a queue, as on Node (node.ts).
 */
export function edgeRenderGate(store: RateLimitStore, enabled: boolean): RenderGate {
  return createRenderGate({
    countClient: async (client) => {
      if (!enabled) return;
      const { ok, resetAt } = await store.hit(RATE_LIMITS.renders, client);
      if (!ok) throw new RenderRefused(429, Math.max(1, Math.ceil((resetAt - Date.now()) / 1000)));
    },
  });
}

/**
 * The long tail of pages on the Worker (#18): a path without a static file is rendered by the
 * build's own page code from the database, and kept in the data center's cache. A path with no
 * page (a bare 404 from Astro) is never cached, so an approved listing is live on its first request.
 */
export function createEdgePages(options: EdgePagesOptions) {
  const { cache, version, db, supportEmail, payments, sponsoredSlots, minMembers, refreshPerDay } = options;
  // What every render here is given: the database and this deployment's settings.
  const live: LiveSettings = { db, supportEmail, payments, sponsoredSlots, minMembers, refreshPerDay };
  // OnDemandContext.generation: what a page keeps from a whole listing (a listing page's outline)
  // lives as long as a cached page may, ON_DEMAND_CACHE_SECONDS, and no longer than a purge here.
  let purges = 0;
  const generation = () => Math.floor(Date.now() / (ON_DEMAND_CACHE_SECONDS * 1000)) * 1_000_000 + purges;
  // Keys are on the site's origin (the Cache API keys by URL within the zone), whatever host a
  // request came in on; the deployment parameter is never a visitor's: only this code looks a key
  // up. The query string a visitor sent is dropped, as the page ignores it, but for a reviews
  // page's key (pageCacheRule); the search page, which answers its query, is never cached.
  const keyOf = (rule: { key: string } | null) => {
    if (!version || !cache || !rule) return null;
    const key = new URL(rule.key, options.origin);
    key.search = `${key.search ? `${key.search}&` : '?'}deployment=${encodeURIComponent(version)}`;
    key.hash = '';
    return key.toString();
  };
  // A listing's reviews pages are kept under its reviews-pages version, itself kept in the cache
  // (one more lookup in the data center, no database read): a purge of the listing's page deletes
  // it, so every reviews page of the listing kept before (whatever its key, one a visitor wrote
  // by hand included) is never answered again, as the purge cannot name those keys one by one.
  // Missing, a version is made and stored before the page is rendered, so a page rendered before
  // a purge is never kept under a version made after it.
  const versionKey = (listing: string) => keyOf({ key: `${listing}${REVIEWS_SUFFIX}?reviews-version` });
  // Versions being made in this isolate: requests that miss at once share one.
  const making = new Map<string, Promise<string | null>>();
  const reviewsVersion = async (listing: string): Promise<string | null> => {
    const key = versionKey(listing);
    if (!key || !cache) return null;
    const hit = await cache.match(key);
    if (hit) return hit.text();
    let made = making.get(key);
    if (!made) {
      const value = crypto.randomUUID();
      const headers = { 'cache-control': `public, max-age=${REVIEWS_VERSION_SECONDS}` };
      // Not stored: the page is not kept either (rendered again next time), as a failed put of a page is.
      made = cache.put(key, new Response(value, { headers })).then(
        () => value,
        (err: unknown) => {
          console.warn('On-demand cache put failed:', err);
          return null;
        },
      );
      making.set(key, made);
      void made.finally(() => making.delete(key));
    }
    return made;
  };
  const pageKeyOf = async (rule: ReturnType<typeof pageCacheRule>) => {
    if (!rule?.listing) return keyOf(rule);
    const reviews = await reviewsVersion(rule.listing);
    return reviews === null ? null : keyOf({ key: `${rule.key}&reviews-version=${encodeURIComponent(reviews)}` });
  };
  // As the static assets answer an HTML file: its ETag, and a 304 to a request that has it.
  const answer = (request: Request, html: string, etag: string) => {
    const headers = { ...HTML_HEADERS, etag };
    if (matchesEtag(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
    return new Response(request.method === 'HEAD' ? null : html, { status: 200, headers });
  };

  return {
    /**
     * The page at `request`'s path (GET or HEAD), cached or rendered now; null when there is none.
     * A render past `client`'s share or the gate's depth throws RenderRefused (edge.ts answers it).
     */
    async page(request: Request, waitUntil: (p: Promise<unknown>) => void, client = ''): Promise<Response | null> {
      if (request.method !== 'GET' && request.method !== 'HEAD') return null;
      const rule = pageCacheRule(new URL(request.url));
      const key = await pageKeyOf(rule);
      const hit = key && cache ? await cache.match(key) : undefined;
      if (hit) {
        const html = await hit.text();
        return answer(request, html, hit.headers.get('etag') ?? (await etagOf(html)));
      }
      const renderNow = () => renderPage(options.render, request, { ...live, generation: generation() });
      const rendered = options.gate ? await options.gate.run(client, renderNow) : await renderNow();
      if (rendered === null) return null;
      if ('response' in rendered) return rendered.response;
      const { html } = rendered;
      const etag = await etagOf(html);
      if (key && cache) {
        const stored = new Response(html, {
          headers: {
            ...HTML_HEADERS,
            etag,
            'cache-control': `public, max-age=${rule?.seconds ?? ON_DEMAND_CACHE_SECONDS}`,
          },
        });
        waitUntil(cache.put(key, stored).catch((err: unknown) => console.warn('On-demand cache put failed:', err)));
      }
      return answer(request, html, etag);
    },
    /**
     * Deletes the cached pages of `paths` in this data center (see ON_DEMAND_CACHE_SECONDS for the
     * others), and with a listing's page its reviews pages (its reviews-pages version).
     */
    async purge(paths: readonly string[]): Promise<void> {
      purges++;
      await Promise.all(
        paths.flatMap((path) => {
          const url = new URL(path, options.origin);
          const keys = [keyOf(pageCacheRule(url))];
          if (isListingPagePath(url.pathname)) keys.push(versionKey(url.pathname));
          return keys.map((key) => (key && cache ? cache.delete(key) : false));
        }),
      );
    },
  };
}

export type EdgePages = ReturnType<typeof createEdgePages>;

/**
 * The rebuild trigger of a Worker that renders pages on demand: each change that names its pages
 * (an approval, an edit, a removal) deletes them from this data center's cache, then goes to the
 * deploy hook as before, which rebuilds the prerendered pages.
 */
export class PurgingRebuildTrigger implements RebuildTrigger {
  readonly #purges: Promise<unknown>[] = [];

  constructor(
    private readonly inner: RebuildTrigger,
    private readonly pages: EdgePages,
  ) {}

  request(reason: string, pages?: readonly string[], scope?: ChangeScope): void | Promise<void> {
    if (pages?.length) this.#purges.push(this.pages.purge(pages).catch(() => undefined));
    return this.inner.request(reason, pages, scope);
  }

  prepare(db: Db, reason: string, pages: readonly string[], scope?: ChangeScope, when?: SQL): PreparedChange {
    const change = this.inner.prepare?.(db, reason, pages, scope, when);
    if (!change) {
      // An inner trigger without it records on its own, once the caller's batch is stored.
      return { statements: [], requested: () => this.request(reason, pages, scope) };
    }
    return {
      statements: change.statements,
      requested: () => {
        if (pages.length) this.#purges.push(this.pages.purge(pages).catch(() => undefined));
        change.requested();
      },
    };
  }

  status(): RebuildStatus {
    return this.inner.status();
  }

  /** Resolves once the purges asked so far are done: the Worker awaits it before answering the change. */
  async settled(): Promise<void> {
    await Promise.all(this.#purges.splice(0));
  }
}
