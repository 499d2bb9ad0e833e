import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, postJson, seedServer, type TestApp } from './api-harness';

let t: TestApp;
afterEach(() => t?.cleanup());

const expectSecurityHeaders = (res: Response) => {
  expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(res.headers.get('content-security-policy')).not.toContain("script-src 'self' 'unsafe-inline'");
  expect(res.headers.get('strict-transport-security')).toContain('max-age=');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBeTruthy();
  expect(res.headers.get('permissions-policy')).toBeTruthy();
};

describe('security headers on API answers', () => {
  it('are on JSON answers, error envelopes and redirects', async () => {
    t = await createTestApp();
    const server = await seedServer(t.db);
    expectSecurityHeaders(await postJson(t.app, '/api/events', { interaction_type: 'view', target_type: 'server' }));
    expectSecurityHeaders(await postJson(t.app, '/api/events', { interaction_type: 'nope' }));
    expectSecurityHeaders(await t.app.request('/api/unknown'));
    expectSecurityHeaders(await t.app.request(`/go/${server.slug}`));
    expectSecurityHeaders(await t.app.request('/api/servers'));
  });

  it('are added to a Response object a handler built itself, keeping its own values', async () => {
    t = await createTestApp(
      {},
      {
        staticSite: async () =>
          new Response('<h1>gone</h1>', {
            status: 404,
            headers: { 'content-type': 'text/html', 'referrer-policy': 'no-referrer' },
          }),
      },
    );
    const res = await t.app.request('/some/page');
    expect(res.status).toBe(404);
    expectSecurityHeaders(res);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });
});
