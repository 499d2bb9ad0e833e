// The Cloudflare entry (functions/worker.ts) built by wrangler and run in workerd,
// against a libSQL database over HTTP (the Hrana fixture over a real file).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../db/queries/servers';
import { BASE_CONTENT_SECURITY_POLICY, CSP_POLICY_FILE } from '../../functions/_app/lib/security-headers';
import { renderHeadersFile } from '../../src/integrations/headers';
import type { LibsqlHttpServer } from '../fixtures/libsql-http-server';
import type { TestDb } from '../helpers/db';
import { type EdgeStack, startEdgeStack, type WranglerDev } from '../helpers/wrangler-dev';

const HASH = 'sha256-edgeTestInlineScriptHash0000000000000000000=';
const POLICY = `${BASE_CONTENT_SECURITY_POLICY} '${HASH}'`;
let tdb: TestDb;
let libsql: LibsqlHttpServer;
let worker: WranglerDev;
let stack: EdgeStack | undefined;

beforeAll(async () => {
  stack = await startEdgeStack({
    assets: {
      'index.html': '<!doctype html><title>GuildRank</title><h1>Home</h1>',
      '404.html': '<!doctype html><title>Not found</title><h1>Page not found</h1>',
      'server-not-found.html':
        '<!doctype html><title>Server not found</title><p>No server called “__REQUESTED_SLUG__”.</p>',
      [CSP_POLICY_FILE]: `${POLICY}\n`,
      _headers: renderHeadersFile(POLICY),
    },
  });
  ({ tdb, libsql, worker } = stack);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

const post = (path: string, body: unknown) =>
  fetch(`${worker.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: worker.url },
    body: JSON.stringify(body),
  });

describe('the Worker in workerd over HTTP libSQL', () => {
  it('GET /api/health reports the database up, with the security headers', async () => {
    const res = await fetch(`${worker.url}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, db: 'up' });
    // A JSON answer takes the API policy; pages (below) take the document policy with the hashes.
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('permissions-policy')).toContain('camera=()');
    // Document-only headers stay on pages: frame-ancestors already forbids framing the data.
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('strict-transport-security')).toContain('max-age=');
    expect(libsql.pipelines).toBeGreaterThan(0);
  });

  it('POST /api/newsletter stores the subscriber in the HTTP database, pending with its confirmation mail', async () => {
    const res = await post('/api/newsletter', { email: 'edge-reader@example.com' });
    expect(res.status).toBe(201);
    const rows = await tdb.client.execute({
      sql: 'SELECT status FROM newsletter_subscribers WHERE email = ?',
      args: ['edge-reader@example.com'],
    });
    expect(rows.rows.map((r) => r.status)).toEqual(['pending']);
    const mails = await tdb.client.execute({
      sql: 'SELECT kind FROM mail_outbox WHERE to_address = ?',
      args: ['edge-reader@example.com'],
    });
    expect(mails.rows.map((r) => r.kind)).toEqual(['newsletter_confirm']);
  });

  it('POST /api/contact stores the message', async () => {
    const res = await post('/api/contact', {
      name: 'Edge Tester',
      email: 'edge-contact@example.com',
      subject: 'technical',
      message: 'The edge runtime answers this form.',
      priority: 'high',
    });
    expect(res.status).toBe(201);
    const rows = await tdb.client.execute({
      sql: 'SELECT subject, priority FROM contact_messages WHERE email = ?',
      args: ['edge-contact@example.com'],
    });
    expect(rows.rows.map((r) => [r.subject, r.priority])).toEqual([['technical', 'high']]);
  });

  it('POST /api/events accepts a batch and never stores a raw IP', async () => {
    const session = `edge-${Date.now()}`;
    const res = await post('/api/events', [
      { interaction_type: 'view', target_type: 'newsletter', session_id: session },
      { interaction_type: 'share', target_type: 'server', session_id: session },
    ]);
    expect(res.status).toBe(202);
    const rows = await tdb.client.execute({
      sql: 'SELECT interaction_type, ip_address FROM user_interactions WHERE session_id = ? ORDER BY id',
      args: [session],
    });
    expect(rows.rows.map((r) => r.interaction_type)).toEqual(['view', 'share']);
    for (const r of rows.rows) expect(String(r.ip_address ?? '')).not.toMatch(/^\d+\.\d+\.\d+\.\d+$|:/);
  });

  it('POST /api/newsletter rejects a malformed email with the 400 envelope and stores nothing', async () => {
    const res = await post('/api/newsletter', { email: 'not-an-email' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; issues?: { path: string }[] } };
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.issues?.map((i) => i.path)).toContain('email');
    const rows = await tdb.client.execute({
      sql: 'SELECT count(*) AS n FROM newsletter_subscribers WHERE email = ?',
      args: ['not-an-email'],
    });
    expect(Number(rows.rows[0]?.n)).toBe(0);
  });

  it('GET /go/:slug runs in the Worker first: 302 to the stored invite, click recorded', async () => {
    const server = await createServer(tdb.db, {
      name: 'Edge Join Guild',
      category: 'Gaming',
      affiliate_link: 'https://discord.gg/edgejoin',
    });
    const res = await fetch(`${worker.url}/go/${server.slug}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://discord.gg/edgejoin');
    const clicks = await tdb.client.execute({
      sql: "SELECT count(*) AS n FROM user_interactions WHERE server_id = ? AND interaction_type = 'click'",
      args: [server.id],
    });
    expect(Number(clicks.rows[0]?.n)).toBe(1);
  });

  it('serves the public API, a badge and the embeddable card from the Worker (#33)', async () => {
    const server = await createServer(tdb.db, {
      name: 'Edge Badge Guild',
      category: 'Gaming',
      members: 4_321,
      active_users: 210,
      affiliate_link: 'https://discord.gg/edgebadge',
    });
    const api = await fetch(`${worker.url}/api/v1/servers/${server.slug}`, {
      headers: { origin: 'https://x.example' },
    });
    expect(api.status).toBe(200);
    expect(api.headers.get('access-control-allow-origin')).toBe('*');
    expect(api.headers.get('ratelimit-policy')).toMatch(/^"public_api";q=\d+;w=60$/);
    expect(((await api.json()) as { members: number }).members).toBe(4_321);
    const badge = await fetch(`${worker.url}/badge/${server.slug}.svg?variant=members`);
    expect(badge.status).toBe(200);
    expect(badge.headers.get('cache-control')).toBe('public, max-age=600');
    expect(await badge.text()).toContain('>4.3K members</text>');
    const card = await fetch(`${worker.url}/embed/${server.slug}`);
    expect(card.status).toBe(200);
    expect(card.headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(card.headers.get('x-frame-options')).toBeNull();
  });

  it('answers unknown API paths with the JSON 404 envelope', async () => {
    const res = await fetch(`${worker.url}/api/no-such-route`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('serves static pages from the assets with the _headers security headers', async () => {
    const res = await fetch(`${worker.url}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<h1>Home</h1>');
    expect(res.headers.get('content-security-policy')).toContain(`'${HASH}'`);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('answers a missing server page with the server-not-found screen naming the slug, status 404', async () => {
    const res = await fetch(`${worker.url}/server/no-such-guild`);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('No server called “no-such-guild”');
    expect(res.headers.get('content-security-policy')).toContain(`'${HASH}'`);
  });

  it('answers writes 503 with Retry-After while the database is away, and writes again once it is back', async () => {
    await libsql.stop();
    try {
      const down = await post('/api/newsletter', { email: 'edge-during@example.com' });
      expect(down.status).toBe(503);
      expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await down.json()) as { error: { code: string } }).error.code).toBe('db_unavailable');
      expect((await fetch(`${worker.url}/`)).status).toBe(200);
    } finally {
      await libsql.start();
    }
    expect((await post('/api/newsletter', { email: 'edge-after@example.com' })).status).toBe(201);
  });
});
