import { zValidator } from '@hono/zod-validator';
import { type Context, Hono } from 'hono';
import { isDbUnavailable } from '../../../db/errors';
import { listPlacedServers, type Server, type ServerFilter } from '../../../db/queries/servers';
import { listSampleServers } from '../../../db/sample-data';
import { categoryFilterName, isPaidPlacement } from '../../../src/lib/listing';
import { isHeadPlacement, placedPage, placesAtHead, readHeadFirst } from '../../../src/lib/placement';
import { type ServerQuery, serverQuerySchema } from '../../../src/lib/schemas/server';
import type { AppDeps, AppEnv } from '../context';
import { ListingCache, type WaitUntil } from '../lib/listing-cache';
import { RATE_LIMITS } from '../lib/rate-limits';
import { validationHook } from '../lib/validate';
import { rateLimit } from '../middleware/rate-limit';

/** One page of the listing as the API answers it. */
export interface ServerPage {
  servers: Server[];
  /** How many servers pass the filter; when total_exact is false, a search's count that stopped at this many ("1,000+"). */
  total: number;
  total_exact: boolean;
  page: number;
  per_page: number;
}

/** The Worker's `waitUntil` for work that outlives the response; undefined on Node (no ExecutionContext). */
export function backgroundOf(c: Context): WaitUntil | undefined {
  try {
    const ctx = c.executionCtx;
    return (work) => ctx.waitUntil(work);
  } catch {
    return undefined;
  }
}

const caches = new WeakMap<AppDeps, ListingCache<ServerPage>>();
/** One cache per app, so tests (one app each) never see another's rows. */
function cacheFor(deps: AppDeps): ListingCache<ServerPage> {
  let cache = caches.get(deps);
  if (!cache) {
    cache = new ListingCache<ServerPage>(2_000, deps.env.LISTING_STALE_SECONDS * 1000);
    caches.set(deps, cache);
  }
  return cache;
}

/** The listing filter of a validated listing query (GET /api/servers and GET /api/v1/servers alike). */
export function serverFilterOf(q: ServerQuery): ServerFilter {
  return {
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
}

/**
 * One page of the public listing with paid cards placed (listPlacedServers), through the app's
 * listing cache: the one query behind the site's GET /api/servers and the public GET /api/v1/servers.
 */
export async function readServerPage(deps: AppDeps, q: ServerQuery, background?: WaitUntil): Promise<ServerPage> {
  const filter = serverFilterOf(q);
  return cacheFor(deps).get(
    JSON.stringify(filter),
    async () => {
      const result = await listPlacedServers(deps.db, filter);
      return {
        servers: result.servers,
        total: result.total,
        total_exact: result.totalExact ?? true,
        page: q.page,
        per_page: q.per_page,
      };
    },
    background,
  );
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
      const filter = serverFilterOf(q);
      const page = (result: { servers: Server[]; total: number; totalExact?: boolean }): ServerPage => ({
        servers: result.servers,
        total: result.total,
        total_exact: result.totalExact ?? true,
        page: q.page,
        per_page: q.per_page,
      });
      try {
        return c.json(await readServerPage(deps, q, backgroundOf(c)), 200, {
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
              readHeadFirst(
                (n) => listSampleServers({ ...filter, page: 1, perPage: n }),
                placesAtHead(filter)
                  ? listSampleServers({ ...filter, page: 1, perPage: 1000 }).servers.filter(isHeadPlacement)
                  : [],
                (s) => s.id,
              ),
              isPaidPlacement,
              q.page,
              q.per_page,
            );
        return c.json(page(samples), 200, { 'Cache-Control': 'no-store', 'X-Data-Source': 'sample' });
      }
    },
  );
