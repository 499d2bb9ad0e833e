import { afterEach, describe, expect, it } from 'vitest';
import { countRows, createTestApp, ORIGIN, postJson, seedServer, type TestApp } from './api-harness';

let t: TestApp;
afterEach(() => t?.cleanup());

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

  it('computes conversion values itself, ignoring any the client sends', async () => {
    t = await createTestApp();
    const plain = await seedServer(t.db);
    const premium = await seedServer(t.db, { is_premium: true });
    const sponsored = await seedServer(t.db, { is_sponsored: true });
    const res = await postJson(t.app, '/api/events', [
      { interaction_type: 'click', target_type: 'server', server_id: plain.id, conversion_value: 999 },
      { interaction_type: 'click', target_type: 'server', server_id: premium.id },
      { interaction_type: 'click', target_type: 'server', server_id: sponsored.id },
      { interaction_type: 'signup', target_type: 'newsletter' },
      { interaction_type: 'click', target_type: 'premium_cta' },
      { interaction_type: 'view', target_type: 'server', server_id: premium.id },
    ]);
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: 6 });
    const values = (await t.client.execute('SELECT conversion_value FROM user_interactions ORDER BY id')).rows.map(
      (r) => r.conversion_value,
    );
    expect(values).toEqual([1, 5, 5, 2, 10, null]);
  });

  it('accepts the text/plain body navigator.sendBeacon sends', async () => {
    t = await createTestApp();
    const res = await t.app.request('/api/events', {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN },
      body: JSON.stringify({ interaction_type: 'click', target_type: 'server', metadata: { action: 'share' } }),
    });
    expect(res.status).toBe(202);
    const row = (await t.client.execute('SELECT metadata FROM user_interactions')).rows[0]!;
    expect(JSON.parse(String(row.metadata))).toEqual({ action: 'share' });
  });

  it('keeps an event for an unknown server id without linking it', async () => {
    t = await createTestApp();
    const res = await postJson(t.app, '/api/events', {
      interaction_type: 'click',
      target_type: 'server',
      server_id: 4242,
    });
    expect(res.status).toBe(202);
    const row = (await t.client.execute('SELECT server_id, target_id, conversion_value FROM user_interactions'))
      .rows[0]!;
    expect(row).toMatchObject({ server_id: null, target_id: '4242', conversion_value: 1 });
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
          { interaction_type: 'click', target_type: 'server', server_id: premium.id, session_id: `s${i}` },
          { interaction_type: 'view', target_type: 'server', server_id: i % 2 ? premium.id : 999_999 },
        ]),
      ),
    );
    expect(responses.every((r) => r.status === 202)).toBe(true);
    expect(await countRows(t.client, 'user_interactions')).toBe(80);
    const clicks = await t.client.execute(
      "SELECT DISTINCT conversion_value FROM user_interactions WHERE interaction_type = 'click'",
    );
    expect(clicks.rows.map((r) => r.conversion_value)).toEqual([5]);
  });
});
