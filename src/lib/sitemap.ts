/**
 * The sitemap, made from the database rather than from the build's files (#18): every indexable
 * page, prerendered or not. One index names the files; each file holds at most 50,000 URLs
 * (sitemaps.org). Pure: the reads are db/queries/sitemap.ts, the HTTP answers routes/sitemap.ts.
 */
import { CATEGORIES, categoryPath, SUBCATEGORIES, subcategoryPath } from './categories';
import { LIMITS } from './enums';
import { absoluteUrl } from './seo';

/** The most URLs one sitemap file may hold (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;

/**
 * Server ids per server sitemap file: file k lists the listed servers with ids in
 * (k * SERVER_IDS_PER_FILE, (k + 1) * SERVER_IDS_PER_FILE], so it never holds more than that many
 * URLs, is read along the primary key, and keeps its URLs when other files' servers come and go.
 */
export const SERVER_IDS_PER_FILE = SITEMAP_MAX_URLS;

/**
 * The indexable pages that are neither a listing nor a server page: every other page of src/pages
 * is noindex (saved, offline, the not-found and thank-you pages, the console, the owner pages).
 * sitemap.test.ts holds this list against the files of src/pages.
 */
export const FIXED_PAGES = [
  '/',
  '/servers',
  '/ranking',
  '/help',
  '/contact',
  '/submit-server',
  '/requirements',
  '/moderation',
  '/pricing',
  '/developers',
  '/developers/guide',
] as const;

/** The numbered pages 2..N of a listing of `count` servers at `base` (page 1 is `base` itself). */
const numberedPages = (count: number, base: string): string[] =>
  Array.from(
    { length: Math.max(0, Math.ceil(count / LIMITS.categoryPageSize) - 1) },
    (_, i) => `${base}/page/${i + 2}`,
  );

/**
 * Every indexable page that is not a server's own, from the listed servers per category and per
 * subcategory page (by its path): the fixed pages, /servers and its numbered pages, each category
 * and its numbered pages, each subcategory and its numbered pages.
 */
export function listingPagePaths(
  byCategory: Readonly<Record<string, number>>,
  bySubcategory: Readonly<Record<string, number>> = {},
): string[] {
  const listed = CATEGORIES.reduce((sum, c) => sum + (byCategory[c.name] ?? 0), 0);
  return [
    ...FIXED_PAGES,
    ...numberedPages(listed, '/servers'),
    ...CATEGORIES.flatMap((c) => [
      categoryPath(c.slug),
      ...numberedPages(byCategory[c.name] ?? 0, categoryPath(c.slug)),
    ]),
    ...SUBCATEGORIES.flatMap((s) => [
      subcategoryPath(s),
      ...numberedPages(bySubcategory[subcategoryPath(s)] ?? 0, subcategoryPath(s)),
    ]),
  ];
}

/** Path of the k-th file of listing pages. */
export const pagesSitemapPath = (k: number): string => `/sitemap-${k}.xml`;
/** Path of the k-th file of server pages. */
export const serversSitemapPath = (k: number): string => `/sitemap-servers-${k}.xml`;

/** How many files of each kind the index names: listing pages by count, servers by id range up to `maxId`. */
export function sitemapFileCounts(listingPages: number, maxId: number): { pages: number; servers: number } {
  return {
    pages: Math.max(1, Math.ceil(listingPages / SITEMAP_MAX_URLS)),
    servers: Math.ceil(maxId / SERVER_IDS_PER_FILE),
  };
}

/** The id range (afterId, throughId] of server file k. */
export const serverFileRange = (k: number): { afterId: number; throughId: number } => ({
  afterId: k * SERVER_IDS_PER_FILE,
  throughId: (k + 1) * SERVER_IDS_PER_FILE,
});

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const xmlText = (s: string) => s.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** A sitemap index naming `paths` (site-relative) under `site`. */
export function sitemapIndexXml(site: string | URL, paths: readonly string[]): string {
  const entries = paths.map((p) => `<sitemap><loc>${xmlText(absoluteUrl(p, site))}</loc></sitemap>`);
  return `${XML_HEAD}<sitemapindex xmlns="${NS}">${entries.join('')}</sitemapindex>\n`;
}

/** One sitemap file of pages (site-relative paths, each with the ISO time it last changed when known). */
export function urlsetXml(
  site: string | URL,
  pages: readonly { path: string; lastmod?: string | undefined }[],
): string {
  if (pages.length > SITEMAP_MAX_URLS) throw new Error(`A sitemap file holds at most ${SITEMAP_MAX_URLS} URLs`);
  const entries = pages.map(
    (p) =>
      `<url><loc>${xmlText(absoluteUrl(p.path, site))}</loc>${p.lastmod ? `<lastmod>${xmlText(p.lastmod)}</lastmod>` : ''}</url>`,
  );
  return `${XML_HEAD}<urlset xmlns="${NS}">${entries.join('')}</urlset>\n`;
}
