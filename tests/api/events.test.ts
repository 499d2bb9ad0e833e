import { afterEach, describe, expect, it } from 'vitest';
import { createAdminHarness } from '../helpers/admin';
import { countRows, createTestApp, ORIGIN, postJson, seedServer, type TestApp } from './api-harness';

let t: TestApp;
let h: Awaited<ReturnType<typeof createAdminHarness>> | undefined;
afterEach(() => {
  t?.cleanup();
  h?.cleanup();
  h = undefined;
});

interface Issues {
  error: { code: string; message: string; issues: { path: string; message: string }[] };
}

describe('POST /api/events', () => {
  it('stores one event with 202, a hashed IP and a truncated user agent', async () => {
    t = await createTestApp();
    const server = await seedServer(t.db);
    const sent = new Date().toISOString();
    const res = await postJson(
      t.app,
      '/api/events',
      {
        interaction_type: 'view',
        target_type: 'server',
        server_id: server.id,
        session_id: 's1',
        referrer: 'https://google.com/',
        utm_source: 'newsletter',
        utm_medium: 'email',
        utm_campaign: 'week-12',
        campaign_id: 'c-1',
      },
      { 'user-agent': 'U'.repeat(400), 'cf-connecting-ip': '198.51.100.7' },
    );
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: 1 });
    const row = (await t.client.execute('SELECT * FROM user_interactions')).rows[0]!;
    expect(row).toMatchObject({
      interaction_type: 'view',
      server_id: server.id,
      session_id: 's1',
      referrer: 'https://google.com/',
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'week-12',
      campaign_id: 'c-1',
      conversion_value: null,
    });
    // The time of the write, in the same ISO form as every other created_at (text order is time order).
    expect(String(row.created_at)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(String(row.created_at) >= sent && String(row.created_at) <= new Date().toISOString()).toBe(true);
    expect(String(row.user_agent)).toHaveLength(256);
    expect(String(row.ip_address)).not.toContain('198.51.100.7');
    expect(String(row.ip_address).length).toBeGreaterThan(20);
  });

  it('stores browser views, saves, unsaves and shares without conversion value, whatever the client claims', async () => {
    t = await createTestApp();
    const plain = await seedServer(t.db);
    const premium = await seedServer(t.db, { is_premium: true });
    const sponsored = await seedServer(t.db, { is_sponsored: true });
    const res = await postJson(t.app, '/api/events', [
      { interaction_type: 'save', target_type: 'server', server_id: plain.id, conversion_value: 999 },
      { interaction_type: 'share', target_type: 'server', server_id: premium.id },
      { interaction_type: 'unsave', target_type: 'server', server_id: sponsored.id },
      { interaction_type: 'view', target_type: 'premium_cta' },
      { interaction_type: 'view', target_type: 'server', server_id: premium.id },
    ]);
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: 5 });
    const values = (await t.client.execute('SELECT conversion_value FROM user_interactions ORDER BY id')).rows.map(
      (r) => r.conversion_value,
    );
    expect(values).toEqual([null, null, null, null, null]);
  });

  it('refuses a forged batch of 50 conversions with 400 naming interaction_type, and the dashboard funnel stays 0', async () => {
    h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
    const premium = await seedServer(h.db, { is_premium: true });
    const forged = Array.from({ length: 50 }, () => ({
      interaction_type: 'conversion',
      target_type: 'server',
      server_id: premium.id,
    }));
    const res = await postJson(h.app, '/api/events', forged);
    expect(res.status).toBe(400);
    const body = (await res.json()) as Issues;
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.issues).toHaveLength(50);
    expect(body.error.issues[0]).toEqual({
      path: '0.interaction_type',
      message: expect.stringContaining('recorded by the server'),
    });
    expect(await countRows(h.client, 'user_interactions')).toBe(0);

    const admin = await h.signIn('admin');
    const dashboard = (await (await h.call(admin, 'GET', '/api/admin/dashboard')).json()) as {
      funnel: Record<string, number>;
      premium: { server_id: number; revenue: unknown[] }[];
    };
    expect(dashboard.funnel).toEqual({ views: 0, clicks: 0, signups: 0, conversions: 0 });
    expect(dashboard.premium).toEqual([expect.objectContaining({ server_id: premium.id, revenue: [] })]);
  });

  it('refuses a newsletter signup and a join click sent by the browser, naming the field', async () => {
    t = await createTestApp();
    const server = await seedServer(t.db);
    const signup = await postJson(t.app, '/api/events', { interaction_type: 'signup', target_type: 'newsletter' });
    expect(signup.status).toBe(400);
    expect(((await signup.json()) as Issues).error.issues.map((i) => i.path)).toEqual(['interaction_type']);
    const join = await postJson(t.app, '/api/events', [
      { interaction_type: 'view', target_type: 'server', server_id: server.id },
      { interaction_type: 'share', target_type: 'server', server_id: server.id, metadata: { action: ' Join ' } },
    ]);
    expect(join.status).toBe(400);
    const issues = ((await join.json()) as Issues).error.issues;
    expect(issues).toEqual([{ path: '1.metadata.action', message: expect.stringContaining('/go/') }]);
    expect(await countRows(t.client, 'user_interactions')).toBe(0);
  });

  it('still records the conversions the server sees: joins through /go (1, 5 premium or sponsored) and a newsletter signup (2)', async () => {
    h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
    const plain = await seedServer(h.db);
    const premium = await seedServer(h.db, { is_premium: true });
    const sponsored = await seedServer(h.db, { is_sponsored: true });
    for (const s of [plain, premium, sponsored]) expect((await h.app.request(`/go/${s.slug}`)).status).toBe(302);
    expect((await postJson(h.app, '/api/newsletter', { email: 'reader@example.com' })).status).toBe(201);
    const rows = (
      await h.client.execute(
        'SELECT interaction_type, target_type, server_id, conversion_value FROM user_interactions ORDER BY id',
      )
    ).rows.map((r) => ({ ...r }));
    expect(rows).toEqual([
      { interaction_type: 'click', target_type: 'server', server_id: plain.id, conversion_value: 1 },
      { interaction_type: 'click', target_type: 'server', server_id: premium.id, conversion_value: 5 },
      { interaction_type: 'click', target_type: 'server', server_id: sponsored.id, conversion_value: 5 },
      { interaction_type: 'signup', target_type: 'newsletter', server_id: null, conversion_value: 2 },
    ]);
    const admin = await h.signIn('admin');
    const dashboard = (await (await h.call(admin, 'GET', '/api/admin/dashboard')).json()) as {
      funnel: Record<string, number>;
      premium: { server_id: number; revenue: unknown[] }[];
    };
    expect(dashboard.funnel).toMatchObject({ clicks: 3, signups: 1 });
    // Revenue is money in minus refunds (orders, #30), never click values: nothing was bought here.
    expect(dashboard.premium).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ server_id: premium.id, revenue: [] }),
        expect.objectContaining({ server_id: sponsored.id, revenue: [] }),
      ]),
    );
  });

  it('accepts the text/plain body navigator.sendBeacon sends', async () => {
    t = await createTestApp();
    const res = await t.app.request('/api/events', {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN },
      body: JSON.stringify({ interaction_type: 'share', target_type: 'server', metadata: { via: 'clipboard' } }),
    });
    expect(res.status).toBe(202);
    const row = (await t.client.execute('SELECT metadata FROM user_interactions')).rows[0]!;
    expect(JSON.parse(String(row.metadata))).toEqual({ via: 'clipboard' });
  });

  it('keeps an event for an unknown server id without linking it', async () => {
    t = await createTestApp();
    const res = await postJson(t.app, '/api/events', {
      interaction_type: 'save',
      target_type: 'server',
      server_id: 4242,
    });
    expect(res.status).toBe(202);
    const row = (await t.client.execute('SELECT server_id, target_id, conversion_value FROM user_interactions'))
      .rows[0]!;
    expect(row).toMatchObject({ server_id: null, target_id: '4242', conversion_value: null });
  });

  it('rejects a batch of more than 50 events and stores none', async () => {
    t = await createTestApp();
    const batch = Array.from({ length: 51 }, () => ({ interaction_type: 'view', target_type: 'server' }));
    const res = await postJson(t.app, '/api/events', batch);
    expect(res.status).toBe(400);
    expect(await countRows(t.client, 'user_interactions')).toBe(0);
  });

  it('rejects a batch with one bad event and stores none of it', async () => {
    t = await createTestApp();
    const res = await postJson(t.app, '/api/events', [
      { interaction_type: 'view', target_type: 'server' },
      { interaction_type: 'purchase', target_type: 'server' },
    ]);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { issues: unknown[] } };
    expect(body.error.issues.length).toBeGreaterThan(0);
    expect(await countRows(t.client, 'user_interactions')).toBe(0);
  });

  it('answers 415 for a form body', async () => {
    t = await createTestApp();
    const res = await t.app.request('/api/events', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
      body: 'interaction_type=view&target_type=server',
    });
    expect(res.status).toBe(415);
    expect(await countRows(t.client, 'user_interactions')).toBe(0);
  });

  it('refuses a cross-site beacon', async () => {
    t = await createTestApp();
    const res = await t.app.request('/api/events', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
      body: JSON.stringify({ interaction_type: 'view', target_type: 'server' }),
    });
    expect(res.status).toBe(403);
    expect(await countRows(t.client, 'user_interactions')).toBe(0);
  });

  it('answers 429 with Retry-After past 240 calls a minute from one address', async () => {
    t = await createTestApp();
    const body = { interaction_type: 'view', target_type: 'server' };
    for (let i = 0; i < 240; i++) expect((await postJson(t.app, '/api/events', body)).status).toBe(202);
    const res = await postJson(t.app, '/api/events', body);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect(await countRows(t.client, 'user_interactions')).toBe(240);
  });
});

describe('POST /api/events under concurrency', () => {
  it('stores every event of 40 simultaneous beacons, one row per accepted event', async () => {
    t = await createTestApp({ RATE_LIMITS: 'false' });
    const premium = await seedServer(t.db, { is_premium: true });
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        postJson(t.app, '/api/events', [
          { interaction_type: 'share', target_type: 'server', server_id: premium.id, session_id: `s${i}` },
          { interaction_type: 'view', target_type: 'server', server_id: i % 2 ? premium.id : 999_999 },
        ]),
      ),
    );
    expect(responses.every((r) => r.status === 202)).toBe(true);
    expect(await countRows(t.client, 'user_interactions')).toBe(80);
    const clicks = await t.client.execute(
      "SELECT DISTINCT conversion_value FROM user_interactions WHERE interaction_type = 'share'",
    );
    // Browser events are counted, never valued: a join's value comes only from /go.
    expect(clicks.rows.map((r) => r.conversion_value)).toEqual([null]);
  });
});
