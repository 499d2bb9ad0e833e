import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from '@readme/openapi-parser';
import Ajv2020 from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertSubmission } from '../../db/queries/submissions';
import { MemoryRateLimitStore, RATE_LIMITS } from '../../functions/_app/lib/rate-limits';
import { v1Document } from '../../functions/_app/routes/v1';
import { REVIEWS_SHOWN_MIN } from '../../src/lib/reviews/summary';
import { createTestApp, ORIGIN, seedServer, type TestApp } from './api-harness';

/** A string no public answer may ever contain: it is only in private places. */
const SECRET = 'private-sentinel-7f3a';

type Doc = ReturnType<typeof v1Document>;
type Operation = {
  operationId: string;
  parameters?: { name: string; in: string }[];
  responses: Record<
    string,
    { content?: { 'application/json'?: { schema: object } }; headers?: Record<string, unknown> }
  >;
};

let t: TestApp;
let doc: Doc;
const slugs = { live: '', hidden: '', dead: '', paid: '' };

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'true' });
  const now = new Date();
  const day = (n: number) => new Date(now.getTime() - n * 86_400_000).toISOString();
  const live = await seedServer(t.db, {
    name: 'Public Alpha',
    members: 12_400,
    active_users: 1_900,
    invite_status: 'ok',
    last_checked_at: day(0),
    last_ok_at: day(0),
    rank_score: 3.5,
    rank_explain: {
      activity: 2.5,
      engagement: 1.1,
      growth: 1,
      interest: 1,
      freshness: 1,
      trust: 1,
      newness: 1,
      status: 1,
    },
    tags: ['strategy'],
    // What the rank recompute stores beside a score: first of the two listed Gaming servers.
    category_place: 1,
  });
  const paid = await seedServer(t.db, { name: 'Paid Beta', members: 500, is_sponsored: true });
  const hidden = await seedServer(t.db, { name: `Hidden ${SECRET}`, is_active: false, members: 99_999 });
  const dead = await seedServer(t.db, { name: 'Dead Gamma', invite_status: 'dead', members: 800 });
  Object.assign(slugs, { live: live.slug, hidden: hidden.slug, dead: dead.slug, paid: paid.slug });
  for (const [i, members] of [12_000, 12_200, 12_400].entries()) {
    await t.client.execute({
      sql: 'INSERT INTO server_snapshots (server_id, checked_at, outcome, member_count, online_count) VALUES (?, ?, ?, ?, ?)',
      args: [live.id, day(2 - i), 'ok', members, 1_900],
    });
  }
  // Private data beside the listings: a submission's contact email and an operator's note.
  const sub = await insertSubmission(t.db, {
    server_name: 'Public Alpha',
    server_description: 'A submission with private fields.',
    category: 'Gaming',
    invite_link: 'https://discord.gg/abcdef',
    contact_email: `${SECRET}@example.com`,
    submitter_name: SECRET,
    member_count: 10,
    active_users: 1,
    is_owner: true,
  } as Parameters<typeof insertSubmission>[1]);
  await t.client.execute({ sql: 'UPDATE server_submissions SET admin_notes = ? WHERE id = ?', args: [SECRET, sub.id] });
  doc = v1Document(ORIGIN);
});
afterAll(() => t?.cleanup());

const get = (path: string, headers: Record<string, string> = {}) =>
  Promise.resolve(t.app.request(`/api/v1${path}`, { headers }));

/** Every operation of the document, with its path and method. */
function operations(): { path: string; method: string; op: Operation }[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, op]) => ({ path, method, op })),
  );
}

/** A validator of one response schema of the document (its $refs resolve against the document's components). */
function validatorFor(schema: object) {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  return ajv.compile({ ...schema, components: doc.components });
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document (@readme/openapi-parser) and the one the app serves', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, JSON.stringify('errors' in result ? result.errors : [])).toBe(true);
    const served = await get('/openapi.json');
    expect(served.status).toBe(200);
    expect(await served.json()).toEqual(doc);
  });

  it('documents the three operations, each with an answer schema that allows no field it does not name', () => {
    expect(operations().map((o) => `${o.method} ${o.path}`)).toEqual([
      'get /servers',
      'get /servers/{slug}',
      'get /categories',
    ]);
    const schemas = doc.components?.schemas as Record<string, { additionalProperties?: unknown }>;
    for (const name of ['Server', 'ServerPage', 'ServerDetail', 'CategoryList', 'Error']) {
      expect(schemas[name]?.additionalProperties, name).toBe(false);
    }
  });

  it('every documented operation answers what its schema says (live answers checked against the document)', async () => {
    for (const { path, op } of operations()) {
      const url = path.replace('{slug}', slugs.live);
      const res = await get(url);
      expect(res.status, url).toBe(200);
      const body = await res.json();
      const check = validatorFor(op.responses['200']!.content!['application/json']!.schema);
      expect(check(body), `${url}: ${JSON.stringify(check.errors)}`).toBe(true);
      // The same check refuses a field the schema does not name: a leak would fail here.
      expect(check({ ...body, contact_email: 'owner@example.com' })).toBe(false);
      for (const header of Object.keys(op.responses['200']!.headers ?? {})) {
        expect(res.headers.get(header), `${url} header ${header}`).toBeTruthy();
      }
      const text = JSON.stringify(body);
      expect(text).not.toContain(SECRET);
      if (op.responses['404']) {
        const missing = await get(path.replace('{slug}', slugs.hidden));
        expect(missing.status).toBe(404);
        const err = validatorFor(op.responses['404'].content!['application/json']!.schema);
        expect(err(await missing.json())).toBe(true);
      }
    }
  });

  it('says, as the guide at /developers/guide does, that rating is a number once 3 member reviews show', () => {
    // The rule the API follows (shownRating; tests/api/reviews.test.ts reads a 5 after six reviews).
    const rule = `at least ${REVIEWS_SHOWN_MIN} member reviews show`;
    const getServer = operations().find((o) => o.op.operationId === 'getServer')!.op as Operation & {
      description: string;
    };
    expect(getServer.description).toContain(rule);
    const guide = readFileSync(join(process.cwd(), 'docs/public-api.md'), 'utf8').replace(/\s+/g, ' ');
    expect(guide).not.toMatch(/collects no reviews|always null today|until reviews exist/);
    expect(guide).toContain(rule);
  });

  it('refuses a bad query with the documented 400 envelope naming the parameter', async () => {
    const res = await get('/servers?sort=loudest&per_page=1000');
    expect(res.status).toBe(400);
    const body = await res.json();
    const listServers = operations().find((o) => o.op.operationId === 'listServers')!;
    expect(validatorFor(listServers.op.responses['400']!.content!['application/json']!.schema)(body)).toBe(true);
    expect(body.error.issues.map((i: { path: string }) => i.path).sort()).toEqual(['per_page', 'sort']);
  });
});

describe('the answers to bad input', () => {
  it('GET /servers refuses a category that is not one of the five with a 400 naming it, instead of an empty page', async () => {
    for (const category of ['Sport Betting', 'Education', 'anime']) {
      const res = await get(`/servers?category=${encodeURIComponent(category)}`);
      expect(res.status, category).toBe(400);
      const body = await res.json();
      expect(body.error.issues.map((i: { path: string }) => i.path)).toEqual(['category']);
      expect(body.error.issues[0].message).toMatch(/Gaming, Crypto, Trading, Sports Betting, Investing/);
    }
    // A name in any case, a slug, All or nothing still list.
    for (const category of ['Gaming', 'gaming', 'sports-betting', 'SPORTS BETTING', 'All', 'all', '']) {
      expect((await get(`/servers?category=${encodeURIComponent(category)}`)).status, category).toBe(200);
    }
  });

  it('GET /servers/{slug} refuses a slug over 100 characters with a 400 the document lists, naming the slug', async () => {
    const res = await get(`/servers/${'a'.repeat(101)}`);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.issues.map((i: { path: string }) => i.path)).toEqual(['slug']);
    const getServer = operations().find((o) => o.op.operationId === 'getServer')!;
    const documented = getServer.op.responses['400'];
    expect(documented, 'getServer documents its 400').toBeDefined();
    expect(validatorFor(documented!.content!['application/json']!.schema)(body)).toBe(true);
  });
});

describe('GET /api/v1/servers', () => {
  it('is the site listing through the same query: the same servers in the same order, paid cards marked', async () => {
    const [site, api] = await Promise.all([
      t.app.request('/api/servers?per_page=10', { headers: { origin: ORIGIN } }),
      get('/servers?per_page=10'),
    ]);
    const siteBody = (await site.json()) as { servers: { slug: string; is_premium: boolean; is_sponsored: boolean }[] };
    const apiBody = (await api.json()) as { servers: { slug: string; placement: string }[]; total: number };
    expect(apiBody.servers.map((s) => s.slug)).toEqual(siteBody.servers.map((s) => s.slug));
    expect(apiBody.servers.find((s) => s.slug === slugs.paid)?.placement).toBe('paid');
    expect(apiBody.servers.find((s) => s.slug === slugs.live)?.placement).toBe('organic');
    expect(apiBody.total).toBe(2);
  });

  it('never lists a hidden listing or a dead invite, whatever the filter', async () => {
    for (const q of ['', '?search=Hidden', '?search=Dead', '?sort=newest', '?category=Gaming&per_page=100']) {
      const body = (await (await get(`/servers${q}`)).json()) as { servers: { slug: string }[] };
      const listed = body.servers.map((s) => s.slug);
      expect(listed, q).not.toContain(slugs.hidden);
      expect(listed, q).not.toContain(slugs.dead);
    }
  });
});

describe('GET /api/v1/servers/{slug}', () => {
  it('gives the page facts: counts with when checked, rank and why, no rating yet, 30-day history', async () => {
    const body = await (await get(`/servers/${slugs.live}`)).json();
    expect(body).toMatchObject({ members: 12_400, online: 1_900, invite_state: 'ok', rating: null });
    expect(body.checked_at).toEqual(expect.any(String));
    expect(body.rank.place).toEqual({ rank: 1, of: 2 });
    expect(body.rank.explanation.length).toBeGreaterThan(0);
    expect(body.history.map((p: { members: number }) => p.members)).toEqual([12_000, 12_200, 12_400]);
  });

  it('keeps a dead invite’s listing, saying so, with no way to join; a hidden one is a 404', async () => {
    const dead = await (await get(`/servers/${slugs.dead}`)).json();
    expect(dead).toMatchObject({ invite_state: 'dead', join_url: null });
    expect(dead.invite_notice).toMatch(/stopped working/);
    const hidden = await get(`/servers/${slugs.hidden}`);
    expect(hidden.status).toBe(404);
    expect((await hidden.json()).error.code).toBe('not_found');
  });
});

describe('GET /api/v1/categories', () => {
  it('counts listed servers only, per category and subcategory', async () => {
    const body = await (await get('/categories')).json();
    const gaming = body.categories.find((c: { name: string }) => c.name === 'Gaming');
    expect(gaming.servers).toBe(2);
    const crypto = body.categories.find((c: { name: string }) => c.name === 'Crypto');
    expect(crypto.subcategories.map((s: { key: string }) => s.key)).toContain('bitcoin');
  });
});

describe('HTTP behaviour of /api/v1', () => {
  it('lets any origin read (GET and HEAD only, no credentials), errors and 304s included', async () => {
    const res = await get('/categories', { origin: 'https://elsewhere.example' });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('access-control-expose-headers')).toMatch(/ETag/);
    const missing = await get('/servers/no-such-server', { origin: 'https://elsewhere.example' });
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await t.app.request('/api/v1/servers', {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET,HEAD');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    const head = await t.app.request('/api/v1/categories', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await t.app.request('/api/v1/servers', { method: 'POST', headers: { origin: ORIGIN } });
    expect(post.status).toBe(405);
  });

  it('answers 304 to a matching If-None-Match, with the pages’ Cache-Control', async () => {
    const first = await get(`/servers/${slugs.live}`);
    const tag = first.headers.get('etag');
    expect(tag).toBeTruthy();
    expect(first.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    const again = await get(`/servers/${slugs.live}`, { 'if-none-match': tag!, origin: 'https://elsewhere.example' });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(tag);
    expect(again.headers.get('access-control-allow-origin')).toBe('*');
    const changed = await get(`/servers/${slugs.live}`, { 'if-none-match': '"something-else"' });
    expect(changed.status).toBe(200);
  });

  it('limits each client with RateLimit headers, then 429 with Retry-After in the envelope, in the shared store', async () => {
    const store = new MemoryRateLimitStore();
    const own = await createTestApp({ RATE_LIMITS: 'true' }, { rateLimitStore: store });
    try {
      const limit = RATE_LIMITS.publicApi.limit;
      const first = await own.app.request('/api/v1/categories');
      expect(first.headers.get('ratelimit-policy')).toBe(`"public_api";q=${limit};w=60`);
      expect(first.headers.get('ratelimit')).toMatch(new RegExp(`^"public_api";r=${limit - 1};t=\\d+$`));
      for (let i = 1; i < limit; i++) expect((await own.app.request('/api/v1/categories')).status).toBe(200);
      const refused = await own.app.request('/api/v1/categories', { headers: { origin: 'https://elsewhere.example' } });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('ratelimit')).toMatch(/^"public_api";r=0;t=\d+$/);
      expect(refused.headers.get('access-control-allow-origin')).toBe('*');
      expect((await refused.json()).error.code).toBe('rate_limited');
      // Counted per client: another address still gets through.
      const other = await own.app.request('/api/v1/categories', { headers: { 'cf-connecting-ip': '203.0.113.9' } });
      expect(other.status).toBe(200);
    } finally {
      own.cleanup();
    }
  });
});
