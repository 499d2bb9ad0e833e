import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { cors } from 'hono/cors';
import { etag } from 'hono/etag';
import { memberHistory } from '../../../../db/queries/history';
import { categoryRankOf, countListedBySubcategory, getServerPageBySlug } from '../../../../db/queries/servers';
import { isListed } from '../../../../src/lib/listing';
import { REVIEWS_SHOWN_MIN } from '../../../../src/lib/reviews/summary';
import {
  categoryListSchema,
  errorSchema,
  PUBLIC_HISTORY_DAYS,
  serverDetailSchema,
  serverPageSchema,
  slugParamSchema,
} from '../../../../src/lib/schemas/public-api';
import { serverQuerySchema } from '../../../../src/lib/schemas/server';
import type { AppDeps, AppEnv } from '../../context';
import { ApiError } from '../../lib/errors';
import { ListingCache } from '../../lib/listing-cache';
import { RATE_LIMITS } from '../../lib/rate-limits';
import { validationHook } from '../../lib/validate';
import { rateLimitWithHeaders } from '../../middleware/rate-limit';
import { backgroundOf, readServerPage } from '../servers';
import { toCategoryList, toPublicServer, toServerDetail } from './present';

/**
 * What every answer of the API may say about caching: the pages' own policy (a cache keeps it but
 * asks again each time, and the ETag makes asking cheap: a 304 without a body).
 */
export const V1_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

/** The headers every successful answer documents. */
const ANSWER_HEADERS: Record<string, HeaderDoc> = {
  ETag: {
    description: 'The answer’s version: send it back as `If-None-Match` to get a 304 while it is unchanged.',
    schema: { type: 'string' },
  },
  'Cache-Control': { description: `\`${V1_CACHE_CONTROL}\``, schema: { type: 'string' } },
  'RateLimit-Policy': {
    description: 'The client’s allowance, e.g. `"public_api";q=120;w=60` (120 requests per 60 s).',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'What is left of it, e.g. `"public_api";r=87;t=42` (87 requests, window resets in 42 s).',
    schema: { type: 'string' },
  },
};

/** An answer header as the document states it. */
type HeaderDoc = { description: string; schema: { type: 'string' | 'integer' } };

const json = <T>(schema: T, description: string, headers: Record<string, HeaderDoc> = {}) => ({
  description,
  headers,
  content: { 'application/json': { schema } },
});

/** The errors every operation can answer, in the one envelope. */
const ERRORS = {
  429: json(errorSchema, 'Too many requests from this client: wait `Retry-After` seconds.', {
    'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
  }),
  503: json(errorSchema, 'The database is unavailable for a moment: retry after `Retry-After` seconds.', {
    'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
  }),
} as const;

/** `GET /servers`: the listing, as the site's pages and islands read it. */
export const listServersRoute = createRoute({
  method: 'get',
  path: '/servers',
  operationId: 'listServers',
  tags: ['Servers'],
  summary: 'List servers',
  description:
    'One page of the public listing: the filters, sorts and paging of the site’s own listing, through the same query. Premium and sponsored cards are placed by the same rule as on the site and marked `placement: "paid"`. Hidden listings and listings whose invite is dead are never in it.',
  request: { query: serverQuerySchema },
  responses: {
    200: json(serverPageSchema, 'A page of servers.', ANSWER_HEADERS),
    304: { description: 'Unchanged since the ETag sent in `If-None-Match`.' },
    400: json(errorSchema, 'A query parameter is not valid; `issues` names each.'),
    ...ERRORS,
  },
});

/** `GET /servers/{slug}`: one listing with what its page shows. */
export const getServerRoute = createRoute({
  method: 'get',
  path: '/servers/{slug}',
  operationId: 'getServer',
  tags: ['Servers'],
  summary: 'Get one server',
  description: `The public facts of one listing: counts with when they were checked, the invite’s state, its rank in its category and why, the rating (the average of its member reviews once at least ${REVIEWS_SHOWN_MIN} member reviews show, else null) and its member history over the last ${PUBLIC_HISTORY_DAYS} days. A listing whose invite died keeps its page (it says so); a hidden or removed listing is a 404.`,
  request: { params: slugParamSchema },
  responses: {
    200: json(serverDetailSchema, 'The listing.', ANSWER_HEADERS),
    304: { description: 'Unchanged since the ETag sent in `If-None-Match`.' },
    400: json(errorSchema, 'The slug is longer than 100 characters; `issues` names it.'),
    404: json(errorSchema, 'No public listing has this slug.'),
    ...ERRORS,
  },
});

/** `GET /categories`: the categories and subcategories with their counts. */
export const listCategoriesRoute = createRoute({
  method: 'get',
  path: '/categories',
  operationId: 'listCategories',
  tags: ['Categories'],
  summary: 'List categories',
  description: 'Every category and subcategory of the directory, with how many listed servers each has.',
  responses: {
    200: json(categoryListSchema, 'The categories.', ANSWER_HEADERS),
    304: { description: 'Unchanged since the ETag sent in `If-None-Match`.' },
    ...ERRORS,
  },
});

/** The operations of version 1, in the order /developers lists them. */
export const V1_ROUTES = [listServersRoute, getServerRoute, listCategoriesRoute] as const;

/** What the document says of the API as a whole. */
const DOCUMENT_INFO = {
  title: 'GuildRank public API',
  version: '1.0.0',
  description:
    'Read-only access to the public listings of GuildRank: the same servers, counts, ranks and categories the site shows, nothing else (never an email, a note or a hidden listing). No key needed; cross-origin reads are allowed (GET and HEAD). Field names are stable: a change that would break a client is published as /api/v2, and version 1 keeps answering.',
};

const documents = new Map<string, ReturnType<OpenAPIHono['getOpenAPI31Document']>>();

/**
 * The OpenAPI 3.1 document of version 1, generated from the routes above (the same definitions the
 * app serves, so the two cannot drift), with `site` (SITE_URL) as its server. The app serves it at
 * /api/v1/openapi.json and the /developers page is rendered from it at build.
 */
export function v1Document(site: string) {
  let doc = documents.get(site);
  if (!doc) {
    const registry = new OpenAPIHono();
    for (const route of V1_ROUTES) registry.openAPIRegistry.registerPath(route);
    doc = registry.getOpenAPI31Document({
      openapi: '3.1.0',
      info: DOCUMENT_INFO,
      servers: [{ url: new URL('/api/v1', site).href, description: 'This site' }],
    });
    documents.set(site, doc);
  }
  return doc;
}

/** The answer headers a cross-origin script may read. */
const EXPOSED_HEADERS = ['ETag', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Request-Id'] as const;

/** The categories' counts change only when listings do: each app reads them at most every 30 s. */
const categoryCaches = new WeakMap<AppDeps, ListingCache<ReturnType<typeof toCategoryList>>>();
function categoryCacheFor(deps: AppDeps) {
  let cache = categoryCaches.get(deps);
  if (!cache) {
    cache = new ListingCache(30_000, 120_000, 1);
    categoryCaches.set(deps, cache);
  }
  return cache;
}

/**
 * The public read API, version 1 (#33), mounted at /api/v1: each operation is defined once above
 * (validation, types and the document come from the same zod schemas). Every answer is
 * cross-origin readable (GET and HEAD, no credentials), carries an ETag (304 on a match), the
 * pages' Cache-Control and the client's RateLimit headers; errors are the one envelope.
 */
const v1 = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
v1.use(async (c, next) => {
  await next();
  // Every answer is readable cross-origin, a 304 and an error included (hono/cors sets the
  // headers of the answer it saw; etag's 304 and onError's envelope are new answers).
  if (!c.res.headers.has('access-control-allow-origin')) {
    c.res.headers.set('Access-Control-Allow-Origin', '*');
    c.res.headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS.join(','));
  }
});
v1.use(cors({ origin: '*', allowMethods: ['GET', 'HEAD'], exposeHeaders: [...EXPOSED_HEADERS], maxAge: 86_400 }));
v1.use(rateLimitWithHeaders(RATE_LIMITS.publicApi));
v1.use(etag());
v1.use(async (c, next) => {
  await next();
  if (c.res.status === 200 || c.res.status === 304) c.res.headers.set('Cache-Control', V1_CACHE_CONTROL);
});

export const v1Routes = v1
  .openapi(listServersRoute, async (c) => {
    const deps = c.get('deps');
    const page = await readServerPage(deps, c.req.valid('query'), backgroundOf(c));
    return c.json(
      {
        servers: page.servers.map((s) => toPublicServer(s, deps.env.SITE_URL)),
        total: page.total,
        total_exact: page.total_exact,
        page: page.page,
        per_page: page.per_page,
      },
      200,
    );
  })
  .openapi(getServerRoute, async (c) => {
    const deps = c.get('deps');
    const slug = c.req.valid('param').slug.trim().toLowerCase();
    // Only a listing with a page (active, listed category; a dead invite's page says so).
    const server = await getServerPageBySlug(deps.db, slug);
    if (!server) throw new ApiError(404, 'not_found', `No public listing has the slug ${slug}`);
    const now = new Date();
    const [history, place] = await Promise.all([
      memberHistory(deps.db, [server.id], PUBLIC_HISTORY_DAYS, now),
      isListed(server) && server.rank_score > 0 ? categoryRankOf(deps.db, server) : undefined,
    ]);
    return c.json(toServerDetail(server, deps.env.SITE_URL, place, history.get(server.id) ?? []), 200);
  })
  .openapi(listCategoriesRoute, async (c) => {
    const deps = c.get('deps');
    const list = await categoryCacheFor(deps).get('all', async () =>
      toCategoryList(await countListedBySubcategory(deps.db), deps.env.SITE_URL),
    );
    return c.json(list, 200);
  })
  // The document itself, generated from the routes above (not an operation of its own).
  .get('/openapi.json', (c) => c.json(v1Document(c.get('deps').env.SITE_URL), 200));
