import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { basicsCache, type LiveSettings } from '../../src/data/site-data';
import { ISLAND_STYLE_ELEMENT, moveIslandStyle } from '../../src/integrations/island-style-html';
import { type EdgeRenderer, pageCacheRule, renderAnswer, renderPage } from './edge-pages';
import type { RenderGate } from './lib/render-gate';
import type { PublishRender } from './site-publish';

/** The server entry of a Node build (src/integrations/on-demand-entry.ts), as the build writes it. */
interface OnDemandEntry {
  renderOnDemand: EdgeRenderer;
  /** src/pages/publish.astro's pages (the home, a listing's first page), for the incremental publish. */
  renderPublished: EdgeRenderer;
}

const gzipAsync = promisify(gzip);

/** A rendered page kept in memory: its HTML and that HTML gzipped once. */
export interface RenderedPage {
  body: Buffer;
  gzip: Buffer | null;
  /** Set on an endpoint's answer (Astro's `/_image`): its own content type. Such answers are never cached. */
  contentType?: string | undefined;
  /**
   * Set on a page's answer that is not the page (never cached): its status (a redirect, a 400
   * saying why a query cannot be read) and the headers it set (Location, Cache-Control).
   */
  status?: number | undefined;
  headers?: Record<string, string> | undefined;
}

/**
 * `LiveSettings`: the database and this server's settings the build's facts carry (SUPPORT_EMAIL,
 * both Stripe keys set, SPONSORED_SLOTS_PER_CATEGORY, MIN_MEMBERS, the refresh's listings a day):
 * a page rendered here states what a prerendered one states. Absent: the defaults.
 */
export interface OnDemandPagesOptions extends LiveSettings {
  /** The live build's server entry (`<build>/server/entry.mjs`), or null before the first build. */
  entry: () => string | null;
  /** Pages kept in the in-process cache (least recently used go first). */
  max?: number;
  /** The limit on renders (lib/render-gate.ts): a cached page never passes through it. */
  gate?: RenderGate;
}

/**
 * A rendered page's bytes with the build's island-style step applied (moveIslandStyle): decoded
 * and encoded again only when the page has the element to move, which a server page has not.
 */
function htmlBytes(bytes: Buffer): Buffer {
  if (!bytes.includes(ISLAND_STYLE_ELEMENT)) return bytes;
  return Buffer.from(moveIslandStyle(bytes.toString('utf8')));
}

/**
 * The long tail of pages on Node (#18): every server and listing page the build did not
 * prerender, rendered on request by the build's own page code (the server entry of the live
 * build, imported once per build) from the database, then kept in an in-process cache until
 * something changes (`invalidate`, called on every change that asks for a rebuild) or a new
 * build goes live. A page nobody has at that path is never cached: an approved listing's page is
 * live on its first request.
 */
export function createOnDemandPages(options: OnDemandPagesOptions) {
  const max = options.max ?? 5_000;
  let loaded: { entry: string; module: Promise<OnDemandEntry> } | null = null;
  // Insertion order is recency: a hit is moved to the end, the oldest is evicted first.
  const cache = new Map<string, RenderedPage & { expires?: number }>();
  let cachedFor: string | null = null;
  // Changes with the cache: what pages keep from a whole listing (OnDemandContext.generation) is
  // kept exactly as long as the pages rendered from it.
  let generation = 0;

  // What every render here is given: the database and this server's settings.
  const { db, supportEmail, payments, sponsoredSlots, minMembers, refreshPerDay } = options;
  const live: LiveSettings = { db, supportEmail, payments, sponsoredSlots, minMembers, refreshPerDay };
  // The layout's texts and facts (three small reads), read once for the renders of a generation.
  const basics = basicsCache(live);

  const moduleFor = (entry: string): Promise<OnDemandEntry> => {
    if (loaded?.entry !== entry) {
      loaded = { entry, module: import(pathToFileURL(entry).href) as Promise<OnDemandEntry> };
    }
    return loaded.module;
  };

  return {
    /**
     * The page at `request`'s path (GET or HEAD), from the cache or rendered now; null when the
     * live build has no on-demand page there (the caller answers its not-found screen).
     */
    async render(request: Request, client = ''): Promise<RenderedPage | null> {
      const entry = options.entry();
      if (!entry) return null;
      // A new build: new page code and assets, so nothing rendered by the old one is kept.
      if (cachedFor !== entry) {
        cache.clear();
        cachedFor = entry;
        generation++;
      }
      // By path, or not at all (the search page), or by path and key (a reviews page): pageCacheRule.
      const rule = pageCacheRule(new URL(request.url));
      const key = rule?.key ?? '';
      const hit = rule ? cache.get(key) : undefined;
      if (hit && (hit.expires === undefined || hit.expires > Date.now())) {
        cache.delete(key);
        cache.set(key, hit);
        return hit;
      }
      if (hit) cache.delete(key);
      const { renderOnDemand } = await moduleFor(entry);
      const renderNow = () =>
        renderAnswer(renderOnDemand, request, { ...live, generation, basics: basics(generation) });
      // Throws RenderRefused past the client's share or the queue's depth (static.ts answers it).
      const rendered = options.gate ? await options.gate.run(client, renderNow) : await renderNow();
      if (rendered === null) return null;
      if ('response' in rendered) {
        // Not a page (the cache is keyed by path; this answer depends on the query too).
        const { response } = rendered;
        const contentType = response.headers.get('content-type') ?? 'application/octet-stream';
        const body = Buffer.from(await response.arrayBuffer());
        if (response.status === 200) return { body, gzip: null, contentType };
        const headers: Record<string, string> = {};
        for (const name of ['location', 'cache-control']) {
          const value = response.headers.get(name);
          if (value !== null) headers[name] = value;
        }
        return { body, gzip: null, contentType, status: response.status, headers };
      }
      const body = htmlBytes(Buffer.from(await rendered.page.arrayBuffer()));
      // Compressed in libuv's thread pool, not on the thread that renders the other requests.
      const page = { body, gzip: body.length > 512 ? await gzipAsync(body) : null };
      // Only while the same build is live: a swap during the render would store old-build HTML.
      if (rule && options.entry() === entry) {
        cache.set(key, rule.seconds === undefined ? page : { ...page, expires: Date.now() + rule.seconds * 1000 });
        if (cache.size > max) cache.delete(cache.keys().next().value as string);
      }
      return page;
    },
    /** Forgets every cached page: a listing, a text or a rank changed (each asks for a rebuild too). */
    invalidate(): void {
      cache.clear();
      generation++;
    },
    /**
     * Renders pages of the build whose server entry is `entry` for the incremental publish
     * (site-publish.ts): through its on-demand routes, or its publish route for the pages only the
     * build writes. Never cached, never gated (one publish at a time). Each publish starts a new
     * generation: what pages keep from a whole listing is read again after the change (a
     * publish made from the same build shares its page code, so nothing else would forget it),
     * and the requests meanwhile share it.
     */
    publishRenderer(entry: string): PublishRender {
      generation++;
      return async (path, route) => {
        const module = await moduleFor(entry);
        const render = route === 'published' ? module.renderPublished : module.renderOnDemand;
        const rendered = await renderPage(render, new Request(new URL(path, 'http://localhost')), {
          ...live,
          generation,
          basics: basics(generation),
        });
        if (rendered === null) return null;
        if ('response' in rendered) throw new Error(`${path} is not a page (${rendered.response.status})`);
        return rendered.html;
      };
    },
    /** How many pages are cached (tests, the bench). */
    size: () => cache.size,
  };
}
