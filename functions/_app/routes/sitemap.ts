import { Hono } from 'hono';
import { getSitemapCounts, listSitemapServers } from '../../../db/queries/sitemap';
import {
  listingPagePaths,
  pagesSitemapPath,
  SITEMAP_MAX_URLS,
  serverFileRange,
  serversSitemapPath,
  sitemapFileCounts,
  sitemapIndexXml,
  urlsetXml,
} from '../../../src/lib/sitemap';
import type { AppDeps, AppEnv } from '../context';

/** Crawlers and the CDN may keep a sitemap this long; a listing approved meanwhile is in the next one fetched. */
const SITEMAP_CACHE = 'public, max-age=600';
const XML = { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': SITEMAP_CACHE };

/**
 * The sitemap from the database (#18), the same on Node and on the Worker: `/sitemap-index.xml`
 * names `/sitemap-{k}.xml` (the fixed and listing pages) and `/sitemap-servers-{k}.xml` (server
 * pages by id range), each at most 50,000 URLs, read from the database on request: every listed
 * server is in it, whatever the build prerendered.
 */
export const sitemapRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .get('/sitemap-index.xml', async (c) => {
      const counts = await getSitemapCounts(deps.db);
      const files = sitemapFileCounts(listingPagePaths(counts.byCategory, counts.bySubcategory).length, counts.maxId);
      const paths = [
        ...Array.from({ length: files.pages }, (_, k) => pagesSitemapPath(k)),
        ...Array.from({ length: files.servers }, (_, k) => serversSitemapPath(k)),
      ];
      return c.body(sitemapIndexXml(deps.env.SITE_URL, paths), 200, XML);
    })
    .get('/:file{sitemap-[0-9]+\\.xml}', async (c) => {
      const k = Number(/[0-9]+/.exec(c.req.param('file'))![0]);
      const counts = await getSitemapCounts(deps.db);
      const pages = listingPagePaths(counts.byCategory, counts.bySubcategory);
      const slice = pages.slice(k * SITEMAP_MAX_URLS, (k + 1) * SITEMAP_MAX_URLS);
      if (slice.length === 0 && k > 0) return c.notFound();
      return c.body(
        urlsetXml(
          deps.env.SITE_URL,
          slice.map((path) => ({ path })),
        ),
        200,
        XML,
      );
    })
    .get('/:file{sitemap-servers-[0-9]+\\.xml}', async (c) => {
      const k = Number(/[0-9]+/.exec(c.req.param('file'))![0]);
      const { afterId, throughId } = serverFileRange(k);
      const servers = await listSitemapServers(deps.db, afterId, throughId);
      // A file past the last server's id is not in the index; one inside it may be empty (every listing hidden).
      if (servers.length === 0 && afterId >= (await getSitemapCounts(deps.db)).maxId) return c.notFound();
      return c.body(
        urlsetXml(
          deps.env.SITE_URL,
          servers.map((s) => ({ path: `/server/${s.slug}`, lastmod: s.updated_at })),
        ),
        200,
        XML,
      );
    });
