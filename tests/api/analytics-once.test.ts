import { afterEach, describe, expect, it } from 'vitest';
import { userInteractions } from '../../db/schema';
import { INTERACTION_TYPES } from '../../src/lib/enums';
import { createAdminHarness } from '../helpers/admin';
import { countRows, createTestApp, postJson, seedServer, type TestApp } from './api-harness';

let t: TestApp | undefined;
let h: Awaited<ReturnType<typeof createAdminHarness>> | undefined;
afterEach(() => {
  t?.cleanup();
  h?.cleanup();
  t = undefined;
  h = undefined;
});

/** Every stored row as `type target value session`, oldest first. */
async function lines(client: TestApp['client']) {
  const rows = await client.execute(
    'SELECT interaction_type, target_type, target_id, conversion_value, session_id FROM user_interactions ORDER BY id',
  );
  return rows.rows.map(
    (r) => `${r.interaction_type} ${r.target_type} ${r.conversion_value ?? 0} ${r.session_id ?? '-'} ${r.target_id}`,
  );
}

const SESSION = '0b7c1a52-5f0e-4d8e-9a51-3f7d2f6a9c11';

describe('analytics: one action, one row, at its conversion value', () => {
  it('the schema knows every interaction kind the app writes (plain text column: no migration)', () => {
    expect(userInteractions.interaction_type.enumValues).toEqual([...INTERACTION_TYPES]);
  });

  it('POST /api/events refuses what the server records itself: click, signup, report and conversion', async () => {
    t = await createTestApp();
    const server = await seedServer(t.db);
    for (const kind of ['click', 'signup', 'report', 'conversion']) {
      const res = await postJson(t.app, '/api/events', {
        interaction_type: kind,
        target_type: 'server',
        server_id: server.id,
      });
      expect(res.status, kind).toBe(400);
      const body = (await res.json()) as { error: { issues: { path: string }[] } };
      expect(body.error.issues.map((i) => i.path)).toEqual(['interaction_type']);
    }
    expect(await countRows(t.client, 'user_interactions')).toBe(0);
  });

  it('a report is one report row, written by the server with the session, worth nothing', async () => {
    t = await createTestApp();
    const server = await seedServer(t.db, { is_premium: true });
    const res = await postJson(t.app, '/api/reports', { server_id: server.id, reason: 'spam', session_id: SESSION });
    expect(res.status).toBe(201);
    expect(await lines(t.client)).toEqual([`report server 0 ${SESSION} ${server.id}`]);
  });

  it('a join through /go carries the session id of ?s= (a malformed one is dropped, the join still counts)', async () => {
    t = await createTestApp();
    const premium = await seedServer(t.db, { is_sponsored: true, affiliate_link: 'https://discord.gg/sp' });
    expect((await t.app.request(`/go/${premium.slug}?s=${SESSION}`)).status).toBe(302);
    expect((await t.app.request(`/go/${premium.slug}?s=${encodeURIComponent('<script>')}`)).status).toBe(302);
    expect(await lines(t.client)).toEqual([
      `click server 5 ${SESSION} ${premium.slug}`,
      `click server 5 - ${premium.slug}`,
    ]);
  });

  it('the premium call to action is one click worth 10, then the contact form with the Premium subject', async () => {
    t = await createTestApp();
    const res = await t.app.request(`/go/cta/premium?from=help&s=${SESSION}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/contact?subject=premium');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await t.app.request('/go/cta/premium?from=elsewhere')).status).toBe(303);
    expect(await lines(t.client)).toEqual([`click premium_cta 10 ${SESSION} help`, 'click premium_cta 10 - null']);
  });

  it('a message about a Premium or Sponsored placement is the one conversion; other subjects record nothing', async () => {
    t = await createTestApp();
    const message = { name: 'Ada', email: 'ada@example.com', message: 'We would like Premium for our server.' };
    const premium = await postJson(t.app, '/api/contact', { ...message, subject: 'premium' });
    expect(premium.status).toBe(201);
    const { message: stored } = (await premium.json()) as { message: { id: number } };
    expect((await postJson(t.app, '/api/contact', { ...message, subject: 'partnership' })).status).toBe(201);
    expect(await lines(t.client)).toEqual([`conversion premium_cta 0 - ${stored.id}`]);
  });

  it('the dashboard counts each kind once at its worth: a premium join 5, a signup 2, worth 7 in all; saves and shares 0', async () => {
    h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
    const premium = await seedServer(h.db, { is_premium: true, affiliate_link: 'https://discord.gg/pr' });
    const view = { target_type: 'server', server_id: premium.id, session_id: SESSION };
    const beacon = await postJson(h.app, '/api/events', [
      { interaction_type: 'view', ...view },
      { interaction_type: 'save', ...view },
      { interaction_type: 'share', ...view },
    ]);
    expect(beacon.status).toBe(202);
    expect((await h.app.request(`/go/${premium.slug}?s=${SESSION}`)).status).toBe(302);
    expect((await postJson(h.app, '/api/newsletter', { email: 'reader@example.com' })).status).toBe(201);

    const admin = await h.signIn('admin');
    const dashboard = (await (await h.call(admin, 'GET', '/api/admin/dashboard')).json()) as {
      funnel: Record<string, number>;
      totals: { counts: Record<string, number>; values: Record<string, number>; worth: number };
      revenue: unknown[];
    };
    expect(dashboard.funnel).toEqual({ views: 1, clicks: 1, signups: 1, conversions: 0 });
    expect(dashboard.totals.counts).toMatchObject({ view: 1, save: 1, share: 1, click: 1, signup: 1, unsave: 0 });
    expect(dashboard.totals.values).toMatchObject({ view: 0, save: 0, share: 0, click: 5, signup: 2 });
    expect(dashboard.totals.worth).toBe(7);
    // Worth is not money: with no order paid, revenue per day is empty.
    expect(dashboard.revenue).toEqual([]);
  });
});
