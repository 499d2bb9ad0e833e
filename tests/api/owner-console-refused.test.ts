import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../functions/_app/app';
import { loadEnv } from '../../functions/_app/env';
import { createTestDb } from '../helpers/db';
import { createOwnerHarness, guild, type OwnerSession, SITE } from './owner-harness';

/** Every concrete console route of the real app (method + path as registered), sign-in included. */
async function consoleRoutes(): Promise<{ method: string; path: string }[]> {
  const db = await createTestDb();
  try {
    const app = createApp({ db: db.db, env: loadEnv({ DATABASE_URL: db.url }) });
    const seen = new Set<string>();
    const out: { method: string; path: string }[] = [];
    for (const r of app.routes) {
      if (r.method === 'ALL' || !r.path.startsWith('/api/admin') || r.path.includes('*')) continue;
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

const routes = await consoleRoutes();
const concrete = (path: string) => path.replace(/:[a-z_]+/gi, '1');

describe('an owner session never reaches the console', () => {
  let h: Awaited<ReturnType<typeof createOwnerHarness>>;
  let owner: OwnerSession;
  let ownerToken: string;
  beforeAll(async () => {
    h = await createOwnerHarness();
    owner = await h.signInOwner([guild('700000000000000001', { owner: true })]);
    ownerToken = /gr_owner=([^;]+)/.exec(owner.cookie)![1]!;
  });
  afterAll(() => h.cleanup());

  it('finds every console route in app.routes, the owner edit queue among them', () => {
    expect(routes.length).toBeGreaterThan(25);
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(keys).toContain('POST /api/admin/edits/:id/approve');
    expect(keys).toContain('POST /api/admin/submissions/:id/approve');
  });

  const guarded = routes.filter((r) => r.path !== '/api/admin/login');

  it.each(guarded.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s refuses the owner cookie (and its CSRF token) with 401',
    async (_, r) => {
      const res = await h.app.request(`${SITE}${concrete(r.path)}`, {
        method: r.method,
        headers: {
          origin: SITE,
          cookie: owner.cookie,
          'x-csrf-token': owner.csrf,
          ...(r.method === 'GET' ? {} : { 'content-type': 'application/json' }),
        },
        ...(r.method === 'GET' ? {} : { body: '{}' }),
      });
      expect(res.status).toBe(401);
    },
  );

  it.each(guarded.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s refuses the owner token sent as the console cookie',
    async (_, r) => {
      const res = await h.app.request(`${SITE}${concrete(r.path)}`, {
        method: r.method,
        headers: {
          origin: SITE,
          cookie: `gr_session=${ownerToken}`,
          'x-csrf-token': owner.csrf,
          ...(r.method === 'GET' ? {} : { 'content-type': 'application/json' }),
        },
        ...(r.method === 'GET' ? {} : { body: '{}' }),
      });
      expect(res.status).toBe(401);
    },
  );

  it('and an operator session is nothing to /api/account', async () => {
    const admin = await h.signIn('admin');
    const res = await h.app.request(`${SITE}/api/account/listings`, { headers: { cookie: admin.cookie } });
    expect(res.status).toBe(401);
  });
});
