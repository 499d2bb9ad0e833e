import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { subscribeEmail } from '../../db/queries/newsletter';
import { unsubscribeToken } from '../../functions/_app/lib/unsubscribe';
import {
  countRows,
  createTestApp,
  ORIGIN,
  postForm,
  postJson,
  type SiteverifyStandIn,
  startSiteverify,
  type TestApp,
  TURNSTILE_FAIL,
  TURNSTILE_PASS,
  turnstileEnv,
} from './api-harness';

let t: TestApp;
afterEach(() => t?.cleanup());
const SECRET = 'test-session-secret';

describe('POST /api/newsletter', () => {
  it('stores a signup as pending with its confirmation mail (double opt-in) and records a signup interaction worth 2', async () => {
    t = await createTestApp();
    const res = await postJson(t.app, '/api/newsletter', { email: 'Fan@Example.com' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { subscriber: Record<string, unknown>; confirmation: string };
    expect(body).toEqual({
      subscriber: { id: expect.any(Number), email: 'fan@example.com', status: 'pending' },
      confirmation: 'sent',
    });
    const row = (await t.client.execute('SELECT * FROM newsletter_subscribers')).rows[0]!;
    expect(row).toMatchObject({
      email: 'fan@example.com',
      source: 'homepage_signup',
      status: 'pending',
      confirmed_at: null,
    });
    expect(JSON.parse(String(row.interests))).toEqual(['premium_servers']);
    const mails = (await t.client.execute('SELECT kind, to_address, headers FROM mail_outbox')).rows;
    expect(mails).toEqual([expect.objectContaining({ kind: 'newsletter_confirm', to_address: 'fan@example.com' })]);
    expect(JSON.parse(String(mails[0]!.headers))).toMatchObject({
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    const events = (await t.client.execute('SELECT * FROM user_interactions')).rows;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ interaction_type: 'signup', target_type: 'newsletter', conversion_value: 2 });
    expect(JSON.parse(String(events[0]!.metadata))).toEqual({ source: 'homepage' });
  });

  it('answers 409 already_subscribed for an active email and stores and mails nothing more', async () => {
    t = await createTestApp();
    await subscribeEmail(t.db, 'fan@example.com');
    const res = await postJson(t.app, '/api/newsletter', { email: 'FAN@example.com' });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      error: {
        code: 'already_subscribed',
        message: 'Email already subscribed',
        issues: [{ path: 'email', message: 'Email already subscribed' }],
      },
    });
    expect(await countRows(t.client, 'newsletter_subscribers')).toBe(1);
    expect(await countRows(t.client, 'user_interactions')).toBe(0);
    expect(await countRows(t.client, 'mail_outbox')).toBe(0);
  });

  it('signing up again while pending sends the confirmation again, at most once a minute', async () => {
    let clock = Date.parse('2026-11-23T10:00:00.000Z');
    t = await createTestApp({}, { now: () => clock });
    await postJson(t.app, '/api/newsletter', { email: 'again@example.com' });
    expect((await postJson(t.app, '/api/newsletter', { email: 'again@example.com' })).status).toBe(201);
    expect(await countRows(t.client, 'mail_outbox')).toBe(1);
    clock += 60_000;
    const res = await postJson(t.app, '/api/newsletter', { email: 'again@example.com' });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { subscriber: { status: string } }).subscriber.status).toBe('pending');
    expect(await countRows(t.client, 'mail_outbox')).toBe(2);
    expect(await countRows(t.client, 'newsletter_subscribers')).toBe(1);
    // One signup event for the address, however often the link is sent again.
    expect(await countRows(t.client, 'user_interactions')).toBe(1);
  });

  it('rejects an invalid email with 400 naming the field', async () => {
    t = await createTestApp();
    const res = await postJson(t.app, '/api/newsletter', { email: 'not-an-email' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { issues: { path: string }[] } };
    expect(body.error.issues.map((i) => i.path)).toEqual(['email']);
    expect(await countRows(t.client, 'newsletter_subscribers')).toBe(0);
  });

  it('rejects a filled honeypot and stores nothing', async () => {
    t = await createTestApp();
    const res = await postJson(t.app, '/api/newsletter', { email: 'bot@example.com', website: 'x' });
    expect(res.status).toBe(400);
    expect(await countRows(t.client, 'newsletter_subscribers')).toBe(0);
    expect(await countRows(t.client, 'user_interactions')).toBe(0);
  });

  it('redirects a form post to the thank-you page, or home with already_subscribed or invalid', async () => {
    t = await createTestApp();
    const first = await postForm(t.app, '/api/newsletter', { email: 'form@example.com', website: '' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/newsletter/subscribed');
    await subscribeEmail(t.db, 'active@example.com');
    const again = await postForm(t.app, '/api/newsletter', { email: 'active@example.com' });
    expect(again.headers.get('location')).toBe('/?newsletter=already_subscribed#newsletter');
    const bad = await postForm(t.app, '/api/newsletter', { email: 'nope' });
    expect(bad.headers.get('location')).toBe('/?newsletter=invalid#newsletter');
    expect(await countRows(t.client, 'newsletter_subscribers')).toBe(2);
  });

  it('an unsubscribed email signing up again goes back to pending with a new confirmation', async () => {
    t = await createTestApp({ SESSION_SECRET: SECRET });
    await subscribeEmail(t.db, 'back@example.com');
    const token = await unsubscribeToken(SECRET, 'back@example.com');
    expect((await postJson(t.app, '/api/newsletter/unsubscribe', { token })).status).toBe(200);
    const res = await postJson(t.app, '/api/newsletter', { email: 'back@example.com' });
    expect(res.status).toBe(201);
    const row = (await t.client.execute('SELECT status, confirmed_at, unsubscribed_at FROM newsletter_subscribers'))
      .rows[0]!;
    expect(row).toMatchObject({ status: 'pending', confirmed_at: null, unsubscribed_at: null });
    expect(await countRows(t.client, 'newsletter_subscribers')).toBe(1);
    const mails = (await t.client.execute('SELECT kind, status FROM mail_outbox')).rows;
    expect(mails).toEqual([expect.objectContaining({ kind: 'newsletter_confirm', status: 'pending' })]);
  });
});

describe('POST /api/newsletter/unsubscribe', () => {
  it('unsubscribes the email a valid token was signed for, with the time', async () => {
    t = await createTestApp({ SESSION_SECRET: SECRET });
    await postJson(t.app, '/api/newsletter', { email: 'leave@example.com' });
    const token = await unsubscribeToken(SECRET, 'leave@example.com');
    const res = await postJson(t.app, '/api/newsletter/unsubscribe', { token });
    expect(res.status).toBe(200);
    const { subscriber } = (await res.json()) as { subscriber: { status: string; unsubscribed_at: string } };
    expect(subscriber.status).toBe('unsubscribed');
    expect(Date.parse(subscriber.unsubscribed_at)).toBeGreaterThan(Date.now() - 60_000);
    const row = (await t.client.execute('SELECT status FROM newsletter_subscribers')).rows[0]!;
    expect(row.status).toBe('unsubscribed');
  });

  it('rejects a token signed with another secret with 400 and changes nothing', async () => {
    t = await createTestApp({ SESSION_SECRET: SECRET });
    await postJson(t.app, '/api/newsletter', { email: 'stay@example.com' });
    const forged = await unsubscribeToken('wrong-secret', 'stay@example.com');
    const res = await postJson(t.app, '/api/newsletter/unsubscribe', { token: forged });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_token');
    const row = (await t.client.execute('SELECT status FROM newsletter_subscribers')).rows[0]!;
    expect(row.status).toBe('pending');
  });

  it('rejects a token whose email part was swapped', async () => {
    t = await createTestApp({ SESSION_SECRET: SECRET });
    await postJson(t.app, '/api/newsletter', { email: 'victim@example.com' });
    const mine = await unsubscribeToken(SECRET, 'me@example.com');
    const victim = btoa('victim@example.com').replace(/=+$/, '');
    const res = await postJson(t.app, '/api/newsletter/unsubscribe', { token: `${victim}.${mine.split('.')[1]}` });
    expect(res.status).toBe(400);
  });

  it('answers 404 for a valid token of an email that never subscribed', async () => {
    t = await createTestApp({ SESSION_SECRET: SECRET });
    const token = await unsubscribeToken(SECRET, 'ghost@example.com');
    const res = await postJson(t.app, '/api/newsletter/unsubscribe', { token });
    expect(res.status).toBe(404);
  });

  it('GET with a valid token shows a confirmation page whose button posts the token', async () => {
    t = await createTestApp({ SESSION_SECRET: SECRET });
    await postJson(t.app, '/api/newsletter', { email: 'link@example.com' });
    const token = await unsubscribeToken(SECRET, 'link@example.com');
    const res = await t.app.request(`/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('link@example.com');
    expect(html).toContain('action="/api/newsletter/unsubscribe"');
    // Opening the link alone (a mail scanner) changes nothing.
    const row = (await t.client.execute('SELECT status FROM newsletter_subscribers')).rows[0]!;
    expect(row.status).toBe('pending');
    const confirm = await postForm(t.app, '/api/newsletter/unsubscribe', { token });
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain('You are unsubscribed');
    const after = (await t.client.execute('SELECT status FROM newsletter_subscribers')).rows[0]!;
    expect(after.status).toBe('unsubscribed');
  });

  it('GET with a bad token answers a 400 page', async () => {
    t = await createTestApp({ SESSION_SECRET: SECRET });
    const res = await t.app.request('/api/newsletter/unsubscribe?token=abc.def', { headers: { origin: ORIGIN } });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('invalid');
  });
});

describe('POST /api/newsletter with Turnstile', () => {
  let standIn: SiteverifyStandIn;
  beforeAll(async () => {
    standIn = await startSiteverify();
  });
  afterAll(() => standIn.close());

  it('sends a form post whose token Cloudflare refuses back as invalid, storing nothing', async () => {
    t = await createTestApp(turnstileEnv(standIn, TURNSTILE_FAIL));
    const res = await postForm(t.app, '/api/newsletter', { email: 'a@example.com', 'cf-turnstile-response': 'tok' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/?newsletter=invalid#newsletter');
    expect(await countRows(t.client, 'newsletter_subscribers')).toBe(0);
  });

  it('subscribes when Cloudflare passes the token', async () => {
    t = await createTestApp(turnstileEnv(standIn, TURNSTILE_PASS));
    const res = await postJson(t.app, '/api/newsletter', { email: 'a@example.com', 'cf-turnstile-response': 'tok' });
    expect(res.status).toBe(201);
  });
});
