import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './api-harness';

let t: TestApp;
afterEach(() => t?.cleanup());

describe('how the app routes public requests', () => {
  it('gives every public route exactly one handler and no middleware (Hono then runs it directly)', async () => {
    t = await createTestApp();
    const publicRoutes = t.app.routes.filter((r) => !r.path.startsWith('/api/admin'));
    // Middleware would show as an ALL route matching these paths.
    expect(publicRoutes.filter((r) => r.method === 'ALL')).toEqual([]);
    const perRoute = new Map<string, number>();
    for (const r of publicRoutes)
      perRoute.set(`${r.method} ${r.path}`, (perRoute.get(`${r.method} ${r.path}`) ?? 0) + 1);
    expect([...perRoute].filter(([, n]) => n !== 1)).toEqual([]);
    for (const route of ['POST /api/events', 'POST /api/submissions', 'GET /api/servers', 'GET /go/:slug']) {
      expect(perRoute.get(route), route).toBe(1);
    }
  });

  it('still answers 405 with Allow, and 404 JSON, from the not-found handler', async () => {
    t = await createTestApp();
    const wrongMethod = await t.app.request('/api/events');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    const unknown = await t.app.request('/api/events/extra', { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('not_found');
    const deleted = await t.app.request('/api/newsletter/unsubscribe', { method: 'DELETE' });
    expect(deleted.status).toBe(405);
    expect(deleted.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
  });
});
