import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../functions/_app/app';
import { loadEnv } from '../../functions/_app/env';
import { createAdminHarness, type Session } from '../helpers/admin';
import { createTestDb, type TestDb } from '../helpers/db';

/**
 * Routes a moderator may use (method + path as registered). Every other /api/admin route is
 * admin-only, so a new route forgotten by requireRole fails this suite.
 */
const MODERATOR_ROUTES = new Set([
  'GET /api/admin/me',
  'POST /api/admin/logout',
  'GET /api/admin/build',
  'GET /api/admin/submissions',
  'GET /api/admin/submissions/stats',
  'GET /api/admin/submissions/:id',
  'PATCH /api/admin/submissions/:id',
  'POST /api/admin/submissions/:id/approve',
  'DELETE /api/admin/submissions/:id',
  'GET /api/admin/edits',
  'GET /api/admin/edits/:id',
  'POST /api/admin/edits/:id/approve',
  'POST /api/admin/edits/:id/reject',
  'GET /api/admin/servers',
  'GET /api/admin/servers/:id',
  'PATCH /api/admin/servers/:id/visibility',
  'GET /api/admin/reports',
  'PATCH /api/admin/reports/:id',
  // Member reviews (#31): the moderators' queue and actions.
  'GET /api/admin/reviews',
  'POST /api/admin/reviews/:id',
  'GET /api/admin/appeals',
  'POST /api/admin/appeals/:id',
  'GET /api/admin/freshness',
  'GET /api/admin/freshness/servers',
  'PATCH /api/admin/freshness/flags/:id',
  'POST /api/admin/freshness/servers/:id/refresh',
]);

/** Every concrete (non-middleware) route of the real app under /api/admin, except sign-in. */
async function adminRoutes(): Promise<{ method: string; path: string }[]> {
  const db: TestDb = await createTestDb();
  try {
    const app = createApp({ db: db.db, env: loadEnv({ DATABASE_URL: db.url }) });
    const seen = new Set<string>();
    const out: { method: string; path: string }[] = [];
    for (const r of app.routes) {
      if (r.method === 'ALL' || !r.path.startsWith('/api/admin') || r.path.includes('*')) continue;
      if (r.path === '/api/admin/login') continue;
      const key = `${r.method} ${r.path}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ method: r.method, path: r.path });
    }
    return out;
  } finally {
    db.cleanup();
  }
}

const concrete = (path: string) => path.replace(/:[a-z_]+/gi, '1');

const routes = await adminRoutes();

describe('every /api/admin route is guarded', () => {
  let h: Awaited<ReturnType<typeof createAdminHarness>>;
  let moderator: Session;
  beforeAll(async () => {
    h = await createAdminHarness();
    moderator = await h.signIn('moderator');
  });
  afterAll(() => h.cleanup());

  it('finds the console routes in app.routes', () => {
    expect(routes.length).toBeGreaterThan(25);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toContain('POST /api/admin/submissions/:id/approve');
  });

  it.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s answers 401 without a session',
    async (_, r) => {
      const res = await h.call(null, r.method, concrete(r.path), r.method === 'GET' ? undefined : {});
      expect(res.status).toBe(401);
    },
  );

  it.each(
    routes
      .filter((r) => !MODERATOR_ROUTES.has(`${r.method} ${r.path}`))
      .map((r) => [`${r.method} ${r.path}`, r] as const),
  )('%s answers 403 to a moderator', async (_, r) => {
    const res = await h.call(moderator, r.method, concrete(r.path), r.method === 'GET' ? undefined : {});
    expect(res.status).toBe(403);
  });

  it('login is the only /api/admin route reachable without a session', async () => {
    const res = await h.call(null, 'POST', '/api/admin/login', { email: 'x@example.com', password: 'y' });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_credentials');
  });

  it('an unknown /api/admin path answers 401 without a session, not 404', async () => {
    expect((await h.call(null, 'GET', '/api/admin/not-a-route')).status).toBe(401);
  });
});
