import { afterEach, describe, expect, it } from 'vitest';
import { setServerActive } from '../../db/queries/servers';
import { countRows, createTestApp, postForm, postJson, seedServer, type TestApp } from './api-harness';

let t: TestApp;
afterEach(() => t?.cleanup());

describe('POST /api/reports', () => {
  it('stores an open report and a click interaction carrying action, reason and details', async () => {
    t = await createTestApp();
    const server = await seedServer(t.db);
    const res = await postJson(
      t.app,
      '/api/reports',
      { server_id: server.id, reason: 'broken_link', details: ' Invite expired ', session_id: 'sess-1' },
      { 'user-agent': 'Mozilla/5.0 test' },
    );
    expect(res.status).toBe(201);
    const { report } = (await res.json()) as { report: Record<string, unknown> };
    expect(report).toMatchObject({
      server_id: server.id,
      reason: 'broken_link',
      details: 'Invite expired',
      status: 'open',
    });
    const events = (await t.client.execute('SELECT * FROM user_interactions')).rows;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      interaction_type: 'report',
      target_type: 'server',
      server_id: server.id,
      session_id: 'sess-1',
      user_agent: 'Mozilla/5.0 test',
    });
    expect(JSON.parse(String(events[0]!.metadata))).toEqual({
      action: 'report',
      reason: 'broken_link',
      details: 'Invite expired',
    });
  });

  it("takes the dialog as a plain form post (no JavaScript): back to the server page's note, or to /report/not-sent", async () => {
    t = await createTestApp();
    const server = await seedServer(t.db);
    const post = (fields: Record<string, string>) => postForm(t.app, '/api/reports', fields);
    const ok = await post({ server_id: String(server.id), reason: 'spam', details: 'Sent as a form', website: '' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe(`/server/${server.slug}#report-sent`);
    expect(await countRows(t.client, 'server_reports')).toBe(1);
    const unknown = await post({ server_id: '999', reason: 'spam' });
    expect(unknown.status).toBe(303);
    expect(unknown.headers.get('location')).toBe('/report/not-sent?error=not_found');
    const noReason = await post({ server_id: String(server.id) });
    expect(noReason.headers.get('location')).toBe('/report/not-sent?error=validation_failed');
    expect(await countRows(t.client, 'server_reports')).toBe(1);
  });

  it('rejects an empty reason and stores nothing', async () => {
    t = await createTestApp();
    const server = await seedServer(t.db);
    const res = await postJson(t.app, '/api/reports', { server_id: server.id, reason: '' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { issues: { path: string }[] } };
    expect(body.error.issues.map((i) => i.path)).toEqual(['reason']);
    expect(await countRows(t.client, 'server_reports')).toBe(0);
    expect(await countRows(t.client, 'user_interactions')).toBe(0);
  });

  it('answers 404 naming server_id for an unknown server', async () => {
    t = await createTestApp();
    const res = await postJson(t.app, '/api/reports', { server_id: 999, reason: 'spam' });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { code: string; message: string; issues: { path: string }[] } };
    expect(body.error.code).toBe('not_found');
    expect(body.error.issues[0]!.path).toBe('server_id');
    expect(await countRows(t.client, 'server_reports')).toBe(0);
  });

  it('answers 404 for a hidden (inactive) server', async () => {
    t = await createTestApp();
    const server = await seedServer(t.db);
    await setServerActive(t.db, server.id, false);
    const res = await postJson(t.app, '/api/reports', { server_id: server.id, reason: 'spam' });
    expect(res.status).toBe(404);
    expect(await countRows(t.client, 'server_reports')).toBe(0);
  });

  it('rejects details over 1000 characters', async () => {
    t = await createTestApp();
    const server = await seedServer(t.db);
    const res = await postJson(t.app, '/api/reports', {
      server_id: server.id,
      reason: 'other',
      details: 'x'.repeat(1001),
    });
    expect(res.status).toBe(400);
    expect(await countRows(t.client, 'server_reports')).toBe(0);
  });

  it('answers 429 after 10 reports from one address in 10 minutes', async () => {
    t = await createTestApp();
    const server = await seedServer(t.db);
    for (let i = 0; i < 10; i++) {
      expect((await postJson(t.app, '/api/reports', { server_id: server.id, reason: 'spam' })).status).toBe(201);
    }
    const res = await postJson(t.app, '/api/reports', { server_id: server.id, reason: 'spam' });
    expect(res.status).toBe(429);
    expect(await countRows(t.client, 'server_reports')).toBe(10);
  });
});
