import type { Db } from '../../../db/client';
import { findServerSlug } from '../../../db/queries/servers';
import { categoryPath, getCategoryBySlug, getSubcategory, subcategoryPath } from '../../../src/lib/categories';
import { escapeHtml } from '../lib/html';

const decodeSafe = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/**
 * Where a site path that matched no built page belongs instead (answered 301), or null for its
 * not-found screen. Both runtimes call it for a miss: the Node static handler and the Worker.
 * A trailing slash is ignored; the location has none, and is made only from known category
 * slugs and stored server slugs, never from the request's text.
 *
 * - `/server/{slug}`: the server's current slug (a rename, another case, a variant of its name).
 * - `/server/{slug}/reviews`: the same for a listing's reviews page (its key is kept by the caller).
 * - `/best-{category}-discord/page/{n}` of a real category: a page past the end (the category
 *   shrank) or page 1, so the category page itself.
 * - `/best-{category}-discord/{sub}/page/{n}` of a real subcategory: the same, its page 1.
 * - `/servers/page/{n}`: the same for the list of every server.
 */
export async function siteRedirect(db: Db, path: string): Promise<string | null> {
  const bare = path.replace(/\/+$/, '');
  const server = /^\/server\/([^/]+)(\/reviews)?$/.exec(bare);
  if (server) {
    const requested = decodeSafe(server[1]!);
    const current = await findServerSlug(db, requested);
    return current && current !== requested ? `/server/${current}${server[2] ?? ''}` : null;
  }
  const paged = /^\/best-([a-z0-9-]+)-discord\/page\/\d+$/.exec(bare);
  if (paged) {
    const category = getCategoryBySlug(paged[1]!);
    return category ? categoryPath(category.slug) : null;
  }
  const subPaged = /^\/best-([a-z0-9-]+)-discord\/([a-z0-9-]+)\/page\/\d+$/.exec(bare);
  if (subPaged) {
    const sub = getSubcategory(subPaged[1]!, subPaged[2]!);
    return sub ? subcategoryPath(sub) : null;
  }
  if (/^\/servers\/page\/\d+$/.test(bare)) return '/servers';
  return null;
}

/**
 * The one trailing-slash rule of both runtimes (the site's URLs have none: trailingSlash
 * 'never'): a site path ending in `/` answers 301 to the same path without it, query kept,
 * whether a file, a page rendered on request or nothing is there (the bare path then gets its
 * own answer). Null for `/` itself, and for a path whose bare form a browser would read as
 * another site (`//host`, `/\\host`).
 */
export function trailingSlashRedirect(url: string): string | null {
  const { pathname, search } = new URL(url);
  if (pathname === '/' || !pathname.endsWith('/')) return null;
  const bare = pathname.replace(/\/+$/, '');
  if (!/^\/[^/\\]/.test(bare)) return null;
  return bare + search;
}

/**
 * Where a trailing-slash redirect (`location`, trailingSlashRedirect's answer) goes in one hop:
 * the bare path's own move (a renamed server) when it has one, query kept, else `location`.
 */
export async function finalLocation(
  location: string,
  lookup: ((path: string) => Promise<string | null>) | undefined,
): Promise<string> {
  const query = location.indexOf('?');
  const path = query === -1 ? location : location.slice(0, query);
  const moved = await movedTo(lookup, path);
  return moved ? moved + (query === -1 ? '' : location.slice(query)) : location;
}

/** Which not-found screen a path gets, by URL shape: the page's path in a build, without `.html`. */
export function notFoundScreenPath(path: string): string {
  if (/^\/best-[^/]+-discord\/?$/.test(path) || /^\/best-[^/]+-discord\/page\/\d+\/?$/.test(path)) {
    return '/category-not-found';
  }
  if (/^\/best-[^/]+-discord\/[^/]+/.test(path)) return '/subcategory-not-found';
  if (/^\/server\/[^/]+/.test(path)) return '/server-not-found';
  return '/404';
}

/** Where a not-found screen shows the slug that was asked for (src/pages/server-not-found.astro). */
export const REQUESTED_SLUG = '__REQUESTED_SLUG__';

/** How a site path that matched no file is answered: a 301 elsewhere, or a not-found screen. */
export type MissAnswer = { kind: 'redirect'; location: string } | { kind: 'screen'; page: string; slug: string };

/**
 * The answer to a missed site path, the same on Node (static.ts) and the Worker (edge.ts): a 301
 * to `moved` (siteRedirect's answer) with the request's query kept, else the not-found screen of
 * the path's URL shape (its page in a build, without `.html`) with the requested slug, the path's
 * last segment decoded and HTML-escaped, for the screen's REQUESTED_SLUG placeholder.
 */
export function answerMiss(url: string, path: string, moved: string | null): MissAnswer {
  if (moved) {
    const query = url.indexOf('?');
    return { kind: 'redirect', location: moved + (query === -1 ? '' : url.slice(query)) };
  }
  // A listing's reviews page names its listing's slug, not "reviews".
  const last = /^\/server\/([^/]+)\/reviews\/?$/.exec(path)?.[1] ?? path.split('/').filter(Boolean).pop() ?? '';
  return { kind: 'screen', page: notFoundScreenPath(path), slug: escapeHtml(decodeSafe(last)) };
}

/** A redirect lookup whose failure means "not moved": while the database is away the visitor still gets the not-found screen. */
export async function movedTo(
  lookup: ((path: string) => Promise<string | null>) | undefined,
  path: string,
): Promise<string | null> {
  if (!lookup) return null;
  try {
    return await lookup(path);
  } catch (err) {
    console.warn(`Redirect lookup for ${path} failed:`, err);
    return null;
  }
}
