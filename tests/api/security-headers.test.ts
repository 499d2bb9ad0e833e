import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { API_HEADERS, BASE_CONTENT_SECURITY_POLICY, canonicalPolicy } from '../../functions/_app/lib/security-headers';
import { createTestApp, ORIGIN, postJson, seedServer, type TestApp } from './api-harness';

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

describe('the Content-Security-Policy fits the answer', () => {
  it('JSON answers load nothing and cannot be framed; pages keep the document policy with the script hashes', async () => {
    t = await createTestApp(
      {},
      {
        contentSecurityPolicy: () => `${BASE_CONTENT_SECURITY_POLICY} 'sha256-test'`,
        staticSite: async (c) => c.html('<h1>gone</h1>', 404),
      },
    );
    for (const res of [
      await postJson(t.app, '/api/events', { interaction_type: 'view', target_type: 'server' }),
      await postJson(t.app, '/api/events', { interaction_type: 'nope' }),
      await t.app.request('/api/servers'),
      await t.app.request('/api/unknown'),
    ]) {
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expectSecurityHeaders(res);
      // Document-only headers are left out of data answers (frame-ancestors already forbids framing).
      expect(res.headers.get('x-frame-options')).toBeNull();
      expect(res.headers.get('cross-origin-opener-policy')).toBeNull();
    }
    const page = await t.app.request('/some/page');
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("'sha256-test'");
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expectSecurityHeaders(page);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  });
});

describe('security headers over HTTP (@hono/node-server, as npm start serves)', () => {
  it('are on 2xx answers and error envelopes alike, with the JSON content type', async () => {
    t = await createTestApp();
    const server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((ok) => server.once('listening', () => ok()));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const post = (path: string, body: string) =>
        fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: ORIGIN },
          body,
        });
      const accepted = await post('/api/events', JSON.stringify({ interaction_type: 'view', target_type: 'server' }));
      expect(accepted.status).toBe(202);
      expect(accepted.headers.get('content-type')).toBe('application/json');
      expectSecurityHeaders(accepted);
      expect(accepted.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(await accepted.json()).toEqual({ accepted: 1 });
      const refused = await post('/api/events', '{"interaction_type":');
      expect(refused.status).toBe(400);
      expectSecurityHeaders(refused);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
      const missing = await fetch(`${base}/api/nothing-here`);
      expect(missing.status).toBe(404);
      expectSecurityHeaders(missing);
    } finally {
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });
});

describe('one header set, whichever path answers', () => {
  const headersOf = (res: Response) =>
    Object.fromEntries([...res.headers.entries()].filter(([name]) => name !== 'x-request-id'));

  it('the events route answers with exactly the headers the chain gives every JSON answer', async () => {
    t = await createTestApp();
    const event = await postJson(t.app, '/api/events', { interaction_type: 'view', target_type: 'server' });
    const refusedEvent = await postJson(t.app, '/api/events', { interaction_type: 'click', target_type: 'server' });
    const report = await postJson(t.app, '/api/reports', { server_id: 999_999, reason: 'spam' });
    expect(event.status).toBe(202);
    expect(refusedEvent.status).toBe(400);
    expect(report.status).toBe(404);
    expect(headersOf(event)).toEqual(headersOf(report));
    expect(headersOf(refusedEvent)).toEqual(headersOf(report));
    expect(headersOf(event)).toEqual({ ...API_HEADERS });
  });

  it("a page's policy header is the build's policy in the canonical order the build writes to its file", async () => {
    // Astro may list its hashes before our directives; the header and dist/csp-policy.txt agree whatever the order.
    const astroOrder = `script-src 'self' https://challenges.cloudflare.com 'sha256-abc='; style-src 'self' 'sha256-def='; ${BASE_CONTENT_SECURITY_POLICY.split(
      '; ',
    )
      .filter((d) => !/^(script|style)-src/.test(d))
      .join('; ')}`;
    t = await createTestApp({}, { contentSecurityPolicy: () => astroOrder });
    const page = await t.app.request('/nowhere');
    expect(page.headers.get('content-security-policy')).toBe(canonicalPolicy(astroOrder));
    expect(canonicalPolicy(astroOrder)).toContain("script-src 'self' https://challenges.cloudflare.com 'sha256-abc='");
    expect(canonicalPolicy(astroOrder).startsWith("default-src 'none'")).toBe(true);
  });
});
