import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminHarness, ORIGIN, type Session } from '../helpers/admin';
import { seedServer, validSubmission } from './api-harness';

/**
 * The answers a cache may keep: the public listing read, which holds only what the pages show
 * (README "API"), and the sitemap from the database (#18), a public document like the pages.
 * Every other answer of /api and /go, and the console page, says no-store.
 */
const CACHEABLE = new Set([
  'GET /api/servers',
  'GET /sitemap-index.xml',
  'GET /:file{sitemap-[0-9]+\\.xml}',
  'GET /:file{sitemap-servers-[0-9]+\\.xml}',
  // The public read API (#33): what the pages show, revalidated with its ETag.
  'GET /api/v1/servers',
  'GET /api/v1/servers/:slug',
  'GET /api/v1/categories',
  'GET /api/v1/openapi.json',
  // Badges and the embeddable card (#33): public pictures of public pages, 10 minutes.
  'GET /badge/:file{[^/]+\\.svg}',
  'GET /embed/:slug',
  // A listing's public reviews (#31): what its page shows, for at most 5 seconds.
  'GET /api/reviews/servers/:id',
]);

/** Routes whose parameter is a pattern: a path it matches. */
const EXAMPLES: Record<string, string> = {
  '/:file{sitemap-[0-9]+\\.xml}': '/sitemap-0.xml',
  '/:file{sitemap-servers-[0-9]+\\.xml}': '/sitemap-servers-0.xml',
  '/badge/:file{[^/]+\\.svg}': '/badge/1.svg',
};
const concrete = (path: string) => EXAMPLES[path] ?? path.replace(/:[a-z_]+/gi, '1').replace(/\/\*$/, '/x');

describe('Cache-Control: no-store on every API and console answer', () => {
  let h: Awaited<ReturnType<typeof createAdminHarness>>;
  let admin: Session;
  beforeAll(async () => {
    h = await createAdminHarness({
      deps: { staticSite: async (c) => c.html('<!doctype html><title>page</title>', 200) },
    });
    admin = await h.signIn('admin');
    // One listed server, so the servers' sitemap file has something to answer.
    await seedServer(h.db);
  });
  afterAll(() => h.cleanup());

  it('every registered route, signed in or not, with good or bad input, errors included', async () => {
    const seen = new Set<string>();
    const checked: string[] = [];
    for (const r of h.app.routes) {
      if (r.method === 'ALL') continue;
      const key = `${r.method} ${r.path}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const path = concrete(r.path);
      for (const session of [null, admin]) {
        const res = await h.call(session, r.method, path, r.method === 'GET' ? undefined : { bad: '\u0000' });
        const cache = res.headers.get('cache-control');
        if (CACHEABLE.has(key) && res.status === 200) expect(cache ?? '(none)', key).toMatch(/^public/);
        else expect(cache, `${key} (${res.status})`).toBe('no-store');
        checked.push(key);
      }
    }
    expect(checked.length).toBeGreaterThan(40);
  });

  it('the submission 201 (it holds the contact email), health, 404, 405, 413 and form redirects', async () => {
    const answers = [
      await h.app.request('/api/submissions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: JSON.stringify(validSubmission()),
      }),
      await h.app.request('/api/health'),
      await h.app.request('/api/nothing-here'),
      await h.app.request('/api/health', { method: 'DELETE' }),
      await h.app.request('/api/events', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN, 'content-length': String(10 * 1024 * 1024) },
        body: '{}',
      }),
      await h.app.request('/api/contact', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
        body: 'name=',
      }),
      await h.app.request('/admin'),
    ];
    expect(answers.map((r) => r.status)).toEqual([201, 200, 404, 405, 413, 303, 200]);
    for (const res of answers) expect(res.headers.get('cache-control'), String(res.status)).toBe('no-store');
  });
});
