import { afterEach, describe, expect, it, vi } from 'vitest';
import { unsubscribeToken } from '../../functions/_app/lib/unsubscribe';
import { createTestApp, postJson, seedServer, type TestApp, validSubmission } from './api-harness';

let t: TestApp;
afterEach(() => {
  vi.restoreAllMocks();
  t?.cleanup();
});

describe('public writes while the database is unreachable', () => {
  it('every POST endpoint answers 503 with Retry-After and the envelope, never a 500', async () => {
    t = await createTestApp({ SESSION_SECRET: 's' });
    const server = await seedServer(t.db);
    const token = await unsubscribeToken('s', 'a@example.com');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    t.client.close();
    const calls: [string, unknown][] = [
      ['/api/submissions', validSubmission()],
      ['/api/newsletter', { email: 'a@example.com' }],
      ['/api/newsletter/unsubscribe', { token }],
      ['/api/reports', { server_id: server.id, reason: 'spam' }],
      ['/api/contact', { name: 'A', email: 'a@example.com', message: 'Hello there, team' }],
      ['/api/events', { interaction_type: 'view', target_type: 'server' }],
    ];
    for (const [path, body] of calls) {
      const res = await postJson(t.app, path, body);
      expect(res.status, path).toBe(503);
      expect(res.headers.get('retry-after'), path).toBeTruthy();
      expect(((await res.json()) as { error: { code: string } }).error.code, path).toBe('db_unavailable');
    }
  });

  it('GET /go/:slug answers 503 rather than redirecting blind', async () => {
    t = await createTestApp();
    const server = await seedServer(t.db);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    t.client.close();
    const res = await t.app.request(`/go/${server.slug}`);
    expect(res.status).toBe(503);
    expect(res.headers.get('location')).toBeNull();
  });
});
