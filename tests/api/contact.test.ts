import { afterEach, describe, expect, it } from 'vitest';
import { countRows, createTestApp, ORIGIN, postForm, postJson, type TestApp } from './api-harness';

let t: TestApp;
afterEach(() => t?.cleanup());

const valid = (o: Record<string, string> = {}) => ({
  name: 'Grace',
  email: 'grace@example.com',
  subject: 'billing',
  message: 'How do I upgrade my listing to premium?',
  priority: 'high',
  ...o,
});

describe('POST /api/contact', () => {
  it('stores a message with status new and answers 201 with its id', async () => {
    t = await createTestApp();
    const res = await postJson(t.app, '/api/contact', valid());
    expect(res.status).toBe(201);
    const body = (await res.json()) as { message: { id: number; status: string } };
    expect(body.message).toEqual({ id: expect.any(Number), status: 'new' });
    const row = (await t.client.execute('SELECT * FROM contact_messages')).rows[0]!;
    expect(row).toMatchObject({ name: 'Grace', subject: 'billing', priority: 'high', status: 'new' });
  });

  it('defaults the subject to general and the priority to normal', async () => {
    t = await createTestApp();
    const res = await postJson(t.app, '/api/contact', {
      name: 'A',
      email: 'a@example.com',
      message: 'Hello there team',
    });
    expect(res.status).toBe(201);
    const row = (await t.client.execute('SELECT subject, priority FROM contact_messages')).rows[0]!;
    expect(row).toMatchObject({ subject: 'general', priority: 'normal' });
  });

  it('rejects an unknown subject and an empty message, naming both', async () => {
    t = await createTestApp();
    const res = await postJson(t.app, '/api/contact', valid({ subject: 'prizes', message: '' }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { issues: { path: string }[] } };
    expect(body.error.issues.map((i) => i.path).sort()).toEqual(['message', 'subject']);
    expect(await countRows(t.client, 'contact_messages')).toBe(0);
  });

  it('rejects a filled honeypot', async () => {
    t = await createTestApp();
    expect((await postJson(t.app, '/api/contact', valid({ website: 'x' }))).status).toBe(400);
    expect(await countRows(t.client, 'contact_messages')).toBe(0);
  });

  it('redirects a form post to /contact/sent, or back with the error and fields', async () => {
    t = await createTestApp();
    const ok = await postForm(t.app, '/api/contact', valid());
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/contact/sent');
    const bad = await postForm(t.app, '/api/contact', valid({ email: 'x' }));
    const location = new URL(bad.headers.get('location') ?? '', ORIGIN);
    expect(location.pathname).toBe('/contact');
    expect(location.searchParams.get('error')).toBe('validation_failed');
    expect(location.searchParams.get('fields')).toBe('email');
    expect(await countRows(t.client, 'contact_messages')).toBe(1);
  });

  it('refuses a form post without Origin or Referer', async () => {
    t = await createTestApp();
    const res = await t.app.request('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(valid()).toString(),
    });
    expect(res.status).toBe(403);
    expect(await countRows(t.client, 'contact_messages')).toBe(0);
  });

  it('accepts a form post whose Referer is a page of the site', async () => {
    t = await createTestApp();
    const res = await t.app.request('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `${ORIGIN}/contact` },
      body: new URLSearchParams(valid()).toString(),
    });
    expect(res.status).toBe(303);
  });

  it('accepts a JSON call from a non-browser client with no Origin', async () => {
    t = await createTestApp();
    const res = await t.app.request('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(valid()),
    });
    expect(res.status).toBe(201);
  });

  it('refuses a JSON post from another origin', async () => {
    t = await createTestApp();
    const res = await postJson(t.app, '/api/contact', valid(), { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(await countRows(t.client, 'contact_messages')).toBe(0);
  });

  it('answers 429 after 5 messages from one address', async () => {
    t = await createTestApp();
    for (let i = 0; i < 5; i++) expect((await postJson(t.app, '/api/contact', valid())).status).toBe(201);
    const res = await postJson(t.app, '/api/contact', valid());
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect(await countRows(t.client, 'contact_messages')).toBe(5);
  });
});
