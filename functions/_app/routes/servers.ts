import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { listServers, type Server, type ServerFilter } from '../../../db/queries/servers';
import { SAMPLE_SERVERS } from '../../../db/sample-data';
import { getCategoryByName, getCategoryBySlug, isListedCategory } from '../../../src/lib/categories';
import { serverQuerySchema } from '../../../src/lib/schemas/server';
import type { AppDeps, AppEnv } from '../context';
import { isDbUnavailable } from '../lib/errors';
import { ListingCache } from '../lib/listing-cache';
import { validationHook } from '../lib/validate';
import { RATE_LIMITS, rateLimit } from '../middleware/rate-limit';

/** 'All', a display name ('Sports Betting', any case) or a slug ('sports-betting') -> the stored name. */
function categoryName(input: string | undefined): string | undefined {
  if (!input || input.toLowerCase() === 'all') return undefined;
  return getCategoryByName(input)?.name ?? getCategoryBySlug(input.toLowerCase())?.name ?? input;
}

/** The sample servers as full rows (defaults filled in), built once. */
let samples: Server[] | undefined;
function sampleServers(): Server[] {
  samples ??= SAMPLE_SERVERS.map((s, i) => ({
    id: s.id ?? i + 1,
    name: s.name,
    description: s.description ?? '',
    category: s.category,
    subcategory: s.subcategory ?? null,
    slug: s.slug,
    members: s.members ?? 0,
    active_users: s.active_users ?? 0,
    rating: s.rating ?? 0,
    image_url: s.image_url ?? null,
    pros: s.pros ?? [],
    cons: s.cons ?? [],
    is_premium: s.is_premium ?? false,
    is_sponsored: s.is_sponsored ?? false,
    affiliate_link: s.affiliate_link ?? null,
    tags: s.tags ?? [],
    features: s.features ?? [],
    sort_order: s.sort_order ?? 0,
    is_active: s.is_active ?? true,
    created_at: s.created_at ?? '1970-01-01T00:00:00.000Z',
    updated_at: s.updated_at ?? s.created_at ?? '1970-01-01T00:00:00.000Z',
  }));
  return samples;
}

/** listServers' semantics over the built-in sample set (SPEC section 4's fallback). */
export function listSampleServers(filter: ServerFilter): { servers: Server[]; total: number } {
  const search = filter.search?.trim().toLowerCase();
  const sub = filter.subcategory && filter.subcategory.toLowerCase() !== 'all' ? filter.subcategory : undefined;
  const subNeedle = sub?.replace(/-/g, ' ').toLowerCase();
  const matching = sampleServers().filter(
    (s) =>
      s.is_active &&
      isListedCategory(s.category) &&
      (!filter.category || filter.category.toLowerCase() === 'all' || s.category === filter.category) &&
      (!subNeedle || (s.subcategory ?? '').toLowerCase().includes(subNeedle)) &&
      (!search ||
        s.name.toLowerCase().includes(search) ||
        s.description.toLowerCase().includes(search) ||
        s.tags.some((t) => t.toLowerCase().includes(search))) &&
      (!filter.premiumOnly || s.is_premium || s.is_sponsored),
  );
  matching.sort((a, b) =>
    filter.sort === 'featured'
      ? b.sort_order - a.sort_order || b.members - a.members || a.id - b.id
      : b.members - a.members || a.id - b.id,
  );
  const perPage = filter.perPage ?? 9;
  const start = ((filter.page ?? 1) - 1) * perPage;
  return { servers: matching.slice(start, start + perPage), total: matching.length };
}

/** One page of the listing as the API answers it. */
interface ServerPage {
  servers: Server[];
  total: number;
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
        category: categoryName(q.category),
        subcategory: q.subcategory || undefined,
        search: q.search || undefined,
        premiumOnly: q.premium,
        sort: q.sort,
        page: q.page,
        perPage: q.per_page,
      };
      const page = (result: { servers: Server[]; total: number }): ServerPage => ({
        servers: result.servers,
        total: result.total,
        page: q.page,
        per_page: q.per_page,
      });
      try {
        const cached = await cacheFor(deps).get(JSON.stringify(filter), async () =>
          page(await listServers(deps.db, filter)),
        );
        return c.json(cached, 200, {
          'Cache-Control': 'public, max-age=30, s-maxage=60',
          'X-Data-Source': 'database',
        });
      } catch (err) {
        // A failing query (bad input that got past the schema, a bug) is not an outage: onError logs it.
        if (!isDbUnavailable(err)) throw err;
        console.warn(`[${c.get('requestId')}] server listing failed, answering with the sample servers:`, err);
        return c.json(page(listSampleServers(filter)), 200, { 'Cache-Control': 'no-store', 'X-Data-Source': 'sample' });
      }
    },
  );
