import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Context } from 'hono';
import { searchPageFor } from '../../src/lib/search-page';
import { PageUnavailableError, pageUnavailable } from './edge-pages';
import { RenderRefused, renderRefusedAnswer } from './lib/render-gate';
import type { RenderedPage } from './on-demand';
import {
  answerMiss,
  finalLocation,
  movedTo,
  notFoundScreenPath,
  REQUESTED_SLUG,
  trailingSlashRedirect,
} from './routes/site-redirects';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.json', '.webmanifest', '.xml', '.txt', '.svg']);

/** Where the not-found screens live in a build, by URL shape (Cloudflare serves them the same way). */
export const notFoundPage = (path: string): string => `${notFoundScreenPath(path)}.html`;

export interface StaticOptions {
  /** Where a path without a page belongs instead (301), e.g. a renamed server's old URL; null for a 404. */
  redirect?: ((path: string) => Promise<string | null>) | undefined;
  /**
   * The page of a path the build did not prerender, rendered on request (on-demand.ts, #18), or
   * null when there is none: asked after the files, before the redirects and not-found screens.
   */
  onDemand?: ((request: Request, client: string) => Promise<RenderedPage | null>) | undefined;
  /**
   * Whether the live build's file at a path is out of date (its listing changed after the build
   * began, #18): such a path is rendered on request, or gets its not-found screen, never the file.
   */
  stale?: ((path: string) => boolean) | undefined;
}

interface Cached {
  mtimeMs: number;
  body: Buffer;
  gzip: Buffer | null;
}

/**
 * Serves a built site from a folder chosen per request, so a rebuild can swap the live
 * folder atomically. Hashed assets are immutable; HTML is revalidated on every visit.
 * Compressible files are gzipped once and kept in memory.
 */
export function createStaticHandler(getRoot: () => string | null, options: StaticOptions = {}) {
  const cache = new Map<string, Cached>();
  // The files of the live folder, listed once per folder. A live folder never changes (a rebuild or
  // a publish writes a new folder and swaps it in: site-builder.ts, site-publish.ts), so once the
  // listing is in, a path none of whose candidates is listed is a miss without asking the disk:
  // a page rendered on request (on-demand.ts), cold or cached, costs no failed stat calls (three a
  // visit, about 0.4 ms of CPU). Until the listing is in, or if it fails, the disk is asked.
  let listing: { root: string; files: Set<string> | null } = { root: '', files: null };
  const listedIn = (root: string): Set<string> | null => {
    if (listing.root !== root) {
      const current = { root, files: null as Set<string> | null };
      listing = current;
      readdir(root, { recursive: true })
        .then((names) => {
          current.files = new Set(names.map((name) => join(root, name)));
        })
        .catch(() => {});
    }
    return listing.files;
  };

  async function load(file: string): Promise<Cached | null> {
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(file);
    } catch {
      return null;
    }
    if (!info.isFile()) return null;
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === info.mtimeMs) return hit;
    if (info.size > 8 * 1024 * 1024) return { mtimeMs: info.mtimeMs, body: Buffer.alloc(0), gzip: null };
    const body = await readFile(file);
    const entry = {
      mtimeMs: info.mtimeMs,
      body,
      gzip: COMPRESSIBLE.has(extname(file)) && body.length > 512 ? gzipSync(body) : null,
    };
    if (cache.size > 20_000) cache.clear();
    cache.set(file, entry);
    return entry;
  }

  function candidates(root: string, path: string): string[] {
    const clean = normalize(decodeURIComponent(path)).replace(/^(\.\.(\/|\\|$))+/, '');
    const base = join(root, clean);
    if (!base.startsWith(root + sep) && base !== root) return [];
    if (clean.endsWith('/')) return [join(base, 'index.html')];
    // Astro builds /x as x.html (build.format 'file'); a folder's index.html comes second.
    return extname(clean) ? [base] : [`${base}.html`, join(base, 'index.html'), base];
  }

  function respond(c: Context, file: string, entry: Cached, status: 200 | 404, replace?: [string, string]) {
    const ext = extname(file);
    const headers: Record<string, string> = {
      'Content-Type': TYPES[ext] ?? 'application/octet-stream',
      'Cache-Control': file.includes(`${sep}_astro${sep}`)
        ? 'public, max-age=31536000, immutable'
        : ext === '.html' || file.endsWith('sw.js')
          ? 'public, max-age=0, must-revalidate'
          : 'public, max-age=3600',
      Vary: 'Accept-Encoding',
    };
    if (entry.body.length === 0 && entry.gzip === null) {
      return new Response(createReadStream(file) as unknown as ReadableStream, { status, headers });
    }
    if (replace) {
      const html = entry.body.toString('utf8').split(replace[0]).join(replace[1]);
      return c.body(html, status, headers);
    }
    const acceptsGzip = /\bgzip\b/.test(c.req.header('accept-encoding') ?? '');
    if (entry.gzip && acceptsGzip) {
      return c.body(new Uint8Array(entry.gzip), status, { ...headers, 'Content-Encoding': 'gzip' });
    }
    return c.body(new Uint8Array(entry.body), status, headers);
  }

  return async (c: Context): Promise<Response | undefined> => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return undefined;
    const root = getRoot();
    if (!root) return c.text('The site is being built. Refresh in a few seconds.', 503, { 'Retry-After': '5' });
    // One rule for a trailing slash, page or not (routes/site-redirects.ts), as on the Worker.
    const canonical = trailingSlashRedirect(c.req.url);
    if (canonical) return c.redirect(await finalLocation(canonical, options.redirect), 301);
    const path = c.req.path;
    // A listing URL with ?search= (a shared link, the structured data's old search address): its
    // built file cannot read the query, so the search page of that listing answers it.
    const search = searchPageFor(new URL(c.req.url));
    if (search) return c.redirect(search, 302);
    let list: string[];
    try {
      list = candidates(root, path);
    } catch {
      list = [];
    }
    const stale = options.stale?.(path) ?? false;
    const listed = listedIn(root);
    for (const file of stale ? [] : list) {
      if (listed && !listed.has(file)) continue;
      const entry = await load(file);
      if (entry) return respond(c, file, entry, 200);
    }
    // Not prerendered: the same page code renders it now. Sent as a built page of the same path
    // is (an .html file's headers), so a visitor or a crawler cannot tell the two apart.
    let page: RenderedPage | null | undefined = null;
    try {
      page = list.length > 0 && !extname(path) ? await options.onDemand?.(c.req.raw, c.get('ipHash') ?? '') : null;
    } catch (err) {
      // Past the client's share of renders or the queue's depth (lib/render-gate.ts).
      if (err instanceof RenderRefused) return renderRefusedAnswer(err);
      // The database is away: the page may well exist, so never its not-found screen.
      if (!(err instanceof PageUnavailableError)) throw err;
      console.warn(err.message);
      return pageUnavailable();
    }
    // A page's own answer that is not the page (a reviews page's redirect, or its 400 for a bad
    // key): its status, its Location and its caching, never a page's 200.
    if (page?.status !== undefined) {
      const location = page.headers?.location;
      if (location && page.status >= 300 && page.status < 400) {
        return c.redirect(location, page.status as 301 | 302 | 303 | 307 | 308);
      }
      return c.body(new Uint8Array(page.body), page.status as 400, {
        'Content-Type': page.contentType ?? 'text/html; charset=utf-8',
        'Cache-Control': page.headers?.['cache-control'] ?? 'no-store',
      });
    }
    // An endpoint's answer (Astro's /_image): its own type, never an HTML page's headers.
    if (page?.contentType) {
      return c.body(new Uint8Array(page.body), 200, {
        'Content-Type': page.contentType,
        'Cache-Control': 'public, max-age=3600',
      });
    }
    if (page) return respond(c, `${list[0]!.replace(/\.html$/, '')}.html`, { mtimeMs: 0, ...page }, 200);
    const miss = answerMiss(c.req.url, path, await movedTo(options.redirect, path));
    if (miss.kind === 'redirect') return c.redirect(miss.location, 301);
    const file = join(root, `${miss.page}.html`);
    const entry = (await load(file)) ?? (await load(join(root, '404.html')));
    if (!entry) return c.text('Not found', 404);
    return respond(c, file, entry, 404, [REQUESTED_SLUG, miss.slug]);
  };
}

/**
 * Reads a page of the live build as text ('/submit-server' from submit-server.html, '/' from
 * index.html), null when there is none: the page a refused no-JavaScript form post is answered with.
 */
export function createPageReader(getRoot: () => string | null) {
  return async (path: string): Promise<string | null> => {
    const root = getRoot();
    if (!root || !/^\/(?:[a-z0-9-]+\/)*[a-z0-9-]*$/.test(path)) return null;
    const file = path === '/' ? join(root, 'index.html') : join(root, `${path}.html`);
    return readFile(file, 'utf8').catch(() => null);
  };
}
