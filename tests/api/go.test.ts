import { afterEach, describe, expect, it } from 'vitest';
import { setServerActive } from '../../db/queries/servers';
import { countRows, createTestApp, seedServer, type TestApp } from './api-harness';

let t: TestApp;
afterEach(() => t?.cleanup());

describe('GET /go/:slug', () => {
  it('redirects 302 to the stored link of an active server and records a join click', async () => {
    t = await createTestApp();
    const server = await seedServer(t.db, { affiliate_link: 'https://discord.gg/joinme', is_premium: true });
    const res = await t.app.request(`/go/${server.slug}`, { headers: { referer: 'http://localhost:4321/' } });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://discord.gg/joinme');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const row = (await t.client.execute('SELECT * FROM user_interactions')).rows[0]!;
    expect(row).toMatchObject({
      interaction_type: 'click',
      target_type: 'server',
      server_id: server.id,
      conversion_value: 5,
      referrer: 'http://localhost:4321/',
    });
    expect(JSON.parse(String(row.metadata))).toEqual({ action: 'join' });
  });

  it('counts a join of a plain server as 1', async () => {
    t = await createTestApp();
    const server = await seedServer(t.db);
    expect((await t.app.request(`/go/${server.slug}`)).status).toBe(302);
    const row = (await t.client.execute('SELECT conversion_value FROM user_interactions')).rows[0]!;
    expect(row.conversion_value).toBe(1);
  });

  it('answers 404 for an unknown slug and records nothing', async () => {
    t = await createTestApp();
    const res = await t.app.request('/go/no-such-server');
    expect(res.status).toBe(404);
    expect(res.headers.get('location')).toBeNull();
    expect(await countRows(t.client, 'user_interactions')).toBe(0);
  });

  it('answers 404 for an inactive server', async () => {
    t = await createTestApp();
    const server = await seedServer(t.db);
    await setServerActive(t.db, server.id, false);
    expect((await t.app.request(`/go/${server.slug}`)).status).toBe(404);
    expect(await countRows(t.client, 'user_interactions')).toBe(0);
  });

  it('answers 404 for a server whose invite now opens another guild (it has no page)', async () => {
    t = await createTestApp();
    const server = await seedServer(t.db, { invite_status: 'wrong_guild' });
    expect((await t.app.request(`/go/${server.slug}`)).status).toBe(404);
  });

  it('answers 404 for a server without a link', async () => {
    t = await createTestApp();
    const server = await seedServer(t.db, { affiliate_link: null });
    expect((await t.app.request(`/go/${server.slug}`)).status).toBe(404);
  });

  it('never redirects to a stored javascript: or protocol-relative link', async () => {
    t = await createTestApp();
    const js = await seedServer(t.db, { affiliate_link: 'javascript:alert(1)' });
    const rel = await seedServer(t.db, { affiliate_link: '//evil.example/x' });
    for (const s of [js, rel]) {
      const res = await t.app.request(`/go/${s.slug}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it('serves the built not-found page when a static site is present', async () => {
    t = await createTestApp({}, { staticSite: async (c) => c.html('<h1>Not here</h1>', 404) });
    const res = await t.app.request('/go/missing');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Not here');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});
