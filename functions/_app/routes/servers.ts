import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { listPlacedServers, type Server, type ServerFilter } from '../../../db/queries/servers';
import { listSampleServers } from '../../../db/sample-data';
import { categoryFilterName, isPaidPlacement } from '../../../src/lib/listing';
import { placedPage } from '../../../src/lib/placement';
import { serverQuerySchema } from '../../../src/lib/schemas/server';
import type { AppDeps, AppEnv } from '../context';
import { isDbUnavailable } from '../lib/errors';
import { ListingCache } from '../lib/listing-cache';
import { RATE_LIMITS } from '../lib/rate-limits';
import { validationHook } from '../lib/validate';
import { rateLimit } from '../middleware/rate-limit';

/** One page of the listing as the API answers it. */
interface ServerPage {
  servers: Server[];
  /** How many servers pass the filter; when total_exact is false, a search's count that stopped at this many ("1,000+"). */
  total: number;
  total_exact: boolean;
  page: number;
  per_page: number;
}

const caches = new WeakMap<AppDeps, ListingCache<ServerPage>>();
/** One cache per app, so tests (one app each) never see another's rows. */
function cacheFor(deps: AppDeps): ListingCache<ServerPage> {
  let cache = caches.get(deps);
  if (!cache) {
    cache = new ListingCache<ServerPage>();
    caches.set(deps, cache);
  }
  return cache;
}

/**
 * `GET /api/servers`: one page of the public listing for the islands' search, filters and
 * pages past the prebuilt first one. Falls back to the sample set, visibly, when the database
 * cannot be reached; any other failure is a 500, never sample data passed off as an answer.
 */
export const serverRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().get(
    '/',
    rateLimit(RATE_LIMITS.servers),
    zValidator('query', serverQuerySchema, validationHook),
    async (c) => {
      const q = c.req.valid('query');
      const filter: ServerFilter = {
        category: categoryFilterName(q.category),
        subcategory: q.subcategory || undefined,
        search: q.search || undefined,
        premiumOnly: q.premium,
        minMembers: q.min_members,
        maxMembers: q.max_members,
        minOnlineShare: q.min_online_share,
        checked24h: q.checked_24h,
        language: q.language,
        region: q.region,
        sort: q.sort,
        page: q.page,
        perPage: q.per_page,
      };
      const page = (result: { servers: Server[]; total: number; totalExact?: boolean }): ServerPage => ({
        servers: result.servers,
        total: result.total,
        total_exact: result.totalExact ?? true,
        page: q.page,
        per_page: q.per_page,
      });
      try {
        const cached = await cacheFor(deps).get(JSON.stringify(filter), async () =>
          page(await listPlacedServers(deps.db, filter)),
        );
        return c.json(cached, 200, {
          'Cache-Control': 'public, max-age=30, s-maxage=60',
          'X-Data-Source': 'database',
        });
      } catch (err) {
        // A failing query (bad input that got past the schema, a bug) is not an outage: onError logs it.
        if (!isDbUnavailable(err)) throw err;
        console.warn(`[${c.get('requestId')}] server listing failed, answering with the sample servers:`, err);
        // The same placement as the database's answer: paid cards at most one in five (src/lib/placement.ts).
        const samples = filter.premiumOnly
          ? listSampleServers(filter)
          : await placedPage(
              (n) => listSampleServers({ ...filter, page: 1, perPage: n }),
              isPaidPlacement,
              q.page,
              q.per_page,
            );
        return c.json(page(samples), 200, { 'Cache-Control': 'no-store', 'X-Data-Source': 'sample' });
      }
    },
  );
