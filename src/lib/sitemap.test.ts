import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, SUBCATEGORIES } from './categories';
import { LIMITS } from './enums';
import {
  FIXED_PAGES,
  listingPagePaths,
  SITEMAP_MAX_URLS,
  serverFileRange,
  sitemapFileCounts,
  sitemapIndexXml,
  urlsetXml,
} from './sitemap';

/** Pages of src/pages that ask not to be indexed (noindex) or are not pages. */
const NOT_INDEXED = [
  '/404',
  '/account',
  '/account/cancelled',
  '/account/paid',
  '/admin',
  '/appeal',
  '/appeal/sent',
  '/category-not-found',
  '/contact/sent',
  '/newsletter/subscribed',
  '/offline',
  // Answers only the incremental publish (a 404 to anyone else): the pages it renders have their own URLs.
  '/publish',
  '/report/not-sent',
  '/robots.txt',
  '/saved',
  '/search',
  '/server-not-found',
  '/subcategory-not-found',
  '/submit-server/received',
];

/** The URL of every page file of src/pages without a parameter in its path. */
function fixedRoutes(): string[] {
  const root = join(import.meta.dirname, '..', 'pages');
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(astro|ts)$/.test(e.name))
    .map((e) => `/${relative(root, join(e.parentPath, e.name))}`)
    .filter((p) => !p.includes('[') && !p.split('/').some((part) => part.startsWith('_')))
    .map((p) => p.replace(/\.(astro|ts)$/, '').replace(/\/index$/, '') || '/')
    .sort();
}

describe('the sitemap', () => {
  it('lists every fixed page of src/pages except the noindex ones', () => {
    expect([...FIXED_PAGES].sort()).toEqual(fixedRoutes().filter((p) => !NOT_INDEXED.includes(p)));
  });

  it('lists each listing and its numbered pages as the pages are built', () => {
    const size = LIMITS.categoryPageSize;
    const paths = listingPagePaths({ Gaming: size * 2 + 1, Crypto: size });
    expect(paths).toContain('/best-gaming-discord/page/3');
    expect(paths).not.toContain('/best-gaming-discord/page/4');
    expect(paths).not.toContain('/best-crypto-discord/page/2');
    expect(paths).toContain('/servers/page/4');
    expect(paths).not.toContain('/servers/page/5');
    expect(paths.filter((p) => /^\/best-[a-z-]+-discord$/.test(p))).toHaveLength(CATEGORIES.length);
    expect(paths.length).toBe(FIXED_PAGES.length + 3 + CATEGORIES.length + 2 + SUBCATEGORIES.length);
  });

  it('lists each subcategory page and its numbered pages, as categories', () => {
    const size = LIMITS.categoryPageSize;
    const paths = listingPagePaths(
      { Crypto: size * 4 },
      { '/best-crypto-discord/defi-discord': size * 3 + 1, '/best-crypto-discord/nft-discord': size },
    );
    expect(paths).toContain('/best-crypto-discord/defi-discord/page/4');
    expect(paths).not.toContain('/best-crypto-discord/defi-discord/page/5');
    expect(paths).toContain('/best-crypto-discord/nft-discord');
    expect(paths).not.toContain('/best-crypto-discord/nft-discord/page/2');
  });

  it('splits a million listings into files of at most 50,000 URLs', () => {
    const pages = listingPagePaths(Object.fromEntries(CATEGORIES.map((c) => [c.name, 200_000])));
    const files = sitemapFileCounts(pages.length, 1_000_000);
    expect(files.pages).toBe(Math.ceil(pages.length / SITEMAP_MAX_URLS));
    expect(files.servers).toBe(20);
    const { afterId, throughId } = serverFileRange(19);
    expect(throughId - afterId).toBe(SITEMAP_MAX_URLS);
    expect(throughId).toBe(1_000_000);
    expect(() => urlsetXml('https://g.example', Array(SITEMAP_MAX_URLS + 1).fill({ path: '/' }))).toThrow();
  });

  it('writes absolute, escaped URLs', () => {
    expect(sitemapIndexXml('https://g.example', ['/sitemap-0.xml'])).toContain(
      '<sitemap><loc>https://g.example/sitemap-0.xml</loc></sitemap>',
    );
    const xml = urlsetXml('https://g.example', [{ path: "/server/a&b'", lastmod: '2026-01-02T03:04:05.000Z' }]);
    expect(xml).toContain(
      '<loc>https://g.example/server/a&amp;b&apos;</loc><lastmod>2026-01-02T03:04:05.000Z</lastmod>',
    );
  });
});
