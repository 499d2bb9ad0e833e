import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
  validSubmission,
} from './api-harness';

let t: TestApp;
afterEach(() => t?.cleanup());

describe('POST /api/submissions', () => {
  it('stores a valid JSON submission as pending and answers 201 with it', async () => {
    t = await createTestApp();
    const res = await postJson(t.app, '/api/submissions', validSubmission());
    expect(res.status).toBe(201);
    const { submission } = (await res.json()) as { submission: Record<string, unknown> };
    expect(submission).toMatchObject({
      server_name: 'Pixel Raiders',
      status: 'pending',
      contact_email: 'owner@example.com',
      member_count: 1250,
      active_users: 140,
      invite_link: 'https://discord.gg/pixelraid',
      is_owner: true,
    });
    const rows = await t.client.execute('SELECT * FROM server_submissions');
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]).toMatchObject({ status: 'pending', server_name: 'Pixel Raiders', admin_notes: null });
  });

  it('rejects a submission without accepted terms and names the field', async () => {
    t = await createTestApp();
    const res = await postJson(t.app, '/api/submissions', validSubmission({ terms: false }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; issues: { path: string }[] } };
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.issues.map((i) => i.path)).toContain('terms');
    expect(await countRows(t.client, 'server_submissions')).toBe(0);
  });

  it('names every bad field at once', async () => {
    t = await createTestApp();
    const res = await postJson(
      t.app,
      '/api/submissions',
      validSubmission({
        server_name: '',
        invite_link: 'https://evil.example/x',
        server_image: 'http://x.example/a.png',
      }),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { issues: { path: string }[] } };
    expect(body.error.issues.map((i) => i.path).sort()).toEqual(['invite_link', 'server_image', 'server_name']);
    expect(await countRows(t.client, 'server_submissions')).toBe(0);
  });

  it('refuses javascript: and data: image URLs', async () => {
    t = await createTestApp();
    for (const server_image of ['javascript:alert(1)', 'data:image/png;base64,AAAA']) {
      const res = await postJson(t.app, '/api/submissions', validSubmission({ server_image }));
      expect(res.status).toBe(400);
    }
    expect(await countRows(t.client, 'server_submissions')).toBe(0);
  });

  it('refuses icon URLs on IP literals, loopback, private and metadata hosts, naming server_image, and stores nothing', async () => {
    t = await createTestApp({ RATE_LIMITS: 'false' });
    for (const server_image of [
      'https://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'https://2852039166/',
      'https://0x7f.1/icon.png',
      'https://10.0.0.8/icon.png',
      'https://[::ffff:a9fe:a9fe]/',
      'https://localhost:4321/icon.png',
      'https://dev.localhost/icon.png',
      'https://nas.local/icon.png',
      'https://metadata.google.internal/computeMetadata/v1/',
      'https://metadata/',
    ]) {
      const res = await postJson(t.app, '/api/submissions', validSubmission({ server_image }));
      expect(res.status, server_image).toBe(400);
      const body = (await res.json()) as { error: { issues: { path: string; message: string }[] } };
      expect(body.error.issues).toEqual([
        {
          path: 'server_image',
          message: 'Icon URL must be on a public website: IP addresses, localhost and internal hosts are not allowed',
        },
      ]);
    }
    expect(await countRows(t.client, 'server_submissions')).toBe(0);
  });

  it('refuses a filled honeypot and stores nothing', async () => {
    t = await createTestApp();
    const res = await postJson(t.app, '/api/submissions', validSubmission({ website: 'http://spam.example' }));
    expect(res.status).toBe(400);
    expect(await countRows(t.client, 'server_submissions')).toBe(0);
  });

  it('refuses control characters in text fields', async () => {
    t = await createTestApp();
    const res = await postJson(t.app, '/api/submissions', validSubmission({ server_name: 'Bad\u0007Name' }));
    expect(res.status).toBe(400);
    expect(await countRows(t.client, 'server_submissions')).toBe(0);
  });

  it('answers a valid form post with 303 to the received screen carrying the email', async () => {
    t = await createTestApp();
    const fields = Object.fromEntries(
      Object.entries(validSubmission({ is_owner: 'on', terms: 'on' })).map(([k, v]) => [k, String(v)]),
    );
    const res = await postForm(t.app, '/api/submissions', fields);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/submit-server/received?email=owner%40example.com');
    expect(await countRows(t.client, 'server_submissions')).toBe(1);
  });

  it('sends an invalid form post back to the form with the error and the bad fields', async () => {
    t = await createTestApp();
    const res = await postForm(t.app, '/api/submissions', {
      server_name: 'Pixel Raiders',
      category: 'Gaming',
      contact_email: 'nope',
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location') ?? '', ORIGIN);
    expect(location.pathname).toBe('/submit-server');
    expect(location.searchParams.get('error')).toBe('validation_failed');
    const fields = location.searchParams.get('fields')?.split(',') ?? [];
    expect(fields).toEqual(expect.arrayContaining(['contact_email', 'terms', 'invite_link', 'server_description']));
    expect(await countRows(t.client, 'server_submissions')).toBe(0);
  });

  it('refuses a form post from another site with 403', async () => {
    t = await createTestApp();
    const res = await postForm(t.app, '/api/submissions', { server_name: 'x' }, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('cross_origin');
    expect(await countRows(t.client, 'server_submissions')).toBe(0);
  });

  it('answers 415 for an unsupported content type', async () => {
    t = await createTestApp();
    const res = await t.app.request('/api/submissions', {
      method: 'POST',
      headers: { 'content-type': 'application/xml', origin: ORIGIN },
      body: '<x/>',
    });
    expect(res.status).toBe(415);
  });

  it('answers 400, not 500, for malformed JSON', async () => {
    t = await createTestApp();
    const res = await postJson(t.app, '/api/submissions', '{"server_name":');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
  });

  it('answers 413 above the 32 KB body limit', async () => {
    t = await createTestApp();
    const res = await postJson(t.app, '/api/submissions', validSubmission({ features: 'x'.repeat(40_000) }));
    expect(res.status).toBe(413);
    expect(await countRows(t.client, 'server_submissions')).toBe(0);
  });

  it('answers 413 from a declared Content-Length over 32 KB without reading the body', async () => {
    t = await createTestApp();
    const res = await t.app.request('/api/submissions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(64 * 1024), origin: ORIGIN },
      body: JSON.stringify(validSubmission()),
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
    expect(await countRows(t.client, 'server_submissions')).toBe(0);
  });

  it('answers 413 for a streamed body over 32 KB without a declared length (the edge path), storing nothing', async () => {
    t = await createTestApp();
    const chunk = new TextEncoder().encode('x'.repeat(8 * 1024));
    for (const type of ['application/json', 'application/x-www-form-urlencoded']) {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 6) controller.enqueue(chunk);
          else controller.close();
        },
      });
      const res = await t.app.request('/api/submissions', {
        method: 'POST',
        headers: { 'content-type': type, origin: ORIGIN },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(res.status, type).toBe(413);
      expect(((await res.json()) as { error: { code: string } }).error.code, type).toBe('payload_too_large');
      // The read stopped at the limit: the rest of the stream was never pulled.
      expect(sent, type).toBeLessThan(7);
    }
    expect(await countRows(t.client, 'server_submissions')).toBe(0);
  });

  it('answers 405 with Allow for GET', async () => {
    t = await createTestApp();
    const res = await t.app.request('/api/submissions');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('POST');
  });

  describe('with Turnstile (a loopback siteverify stand-in)', () => {
    let standIn: SiteverifyStandIn;
    beforeAll(async () => {
      standIn = await startSiteverify();
    });
    afterAll(() => standIn.close());

    it('accepts a token Cloudflare passes when both Turnstile keys are set', async () => {
      t = await createTestApp(turnstileEnv(standIn, TURNSTILE_PASS));
      const before = standIn.asked;
      const res = await postJson(
        t.app,
        '/api/submissions',
        validSubmission({ 'cf-turnstile-response': 'XXXX.DUMMY.TOKEN.XXXX' }),
      );
      expect(res.status).toBe(201);
      expect(standIn.asked).toBe(before + 1);
      expect(await countRows(t.client, 'server_submissions')).toBe(1);
    });

    it('refuses with 403 when Cloudflare fails the token', async () => {
      t = await createTestApp(turnstileEnv(standIn, TURNSTILE_FAIL));
      const res = await postJson(
        t.app,
        '/api/submissions',
        validSubmission({ 'cf-turnstile-response': 'XXXX.DUMMY.TOKEN.XXXX' }),
      );
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('turnstile_failed');
      expect(await countRows(t.client, 'server_submissions')).toBe(0);
    });

    it('refuses a missing token without asking Cloudflare', async () => {
      t = await createTestApp(turnstileEnv(standIn, TURNSTILE_PASS));
      const before = standIn.asked;
      const res = await postJson(t.app, '/api/submissions', validSubmission());
      expect(res.status).toBe(403);
      expect(standIn.asked).toBe(before);
      expect(await countRows(t.client, 'server_submissions')).toBe(0);
    });

    it('checks nothing when only one of the two keys is set (no widget is shown then either)', async () => {
      for (const env of [
        { TURNSTILE_SECRET: TURNSTILE_FAIL, TURNSTILE_SITEVERIFY_URL: standIn.url },
        { TURNSTILE_SITE_KEY: '1x00000000000000000000AA', TURNSTILE_SITEVERIFY_URL: standIn.url },
      ]) {
        const app = await createTestApp(env);
        try {
          const before = standIn.asked;
          const res = await postJson(app.app, '/api/submissions', validSubmission());
          expect(res.status, Object.keys(env).join()).toBe(201);
          expect(standIn.asked).toBe(before);
        } finally {
          app.cleanup();
        }
      }
    });

    it('answers 503 with Retry-After when Cloudflare cannot be reached', async () => {
      const gone = await startSiteverify();
      await gone.close();
      t = await createTestApp(turnstileEnv(gone, TURNSTILE_PASS));
      const res = await postJson(t.app, '/api/submissions', validSubmission({ 'cf-turnstile-response': 'tok' }));
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBeTruthy();
      expect(await countRows(t.client, 'server_submissions')).toBe(0);
    });
  });

  it('answers 429 with Retry-After after 5 submissions from one address in 10 minutes', async () => {
    t = await createTestApp();
    for (let i = 0; i < 5; i++) {
      expect((await postJson(t.app, '/api/submissions', validSubmission())).status).toBe(201);
    }
    const res = await postJson(t.app, '/api/submissions', validSubmission());
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await countRows(t.client, 'server_submissions')).toBe(5);
    // Another address still gets through.
    const other = await postJson(t.app, '/api/submissions', validSubmission(), { 'cf-connecting-ip': '203.0.113.9' });
    expect(other.status).toBe(201);
  });

  it('refuses an icon URL with a user name and password (user:pass@), naming the field', async () => {
    t = await createTestApp();
    const res = await postJson(
      t.app,
      '/api/submissions',
      validSubmission({ server_image: 'https://discord.com:x@evil.example/icon.png' }),
    );
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { issues: { path: string; message: string }[] } };
    expect(body.error.issues).toEqual([
      expect.objectContaining({ path: 'server_image', message: expect.stringContaining('user name or password') }),
    ]);
    expect(await countRows(t.client, 'server_submissions')).toBe(0);
  });

  it('applies no rate limit when RATE_LIMITS=false', async () => {
    t = await createTestApp({ RATE_LIMITS: 'false' });
    for (let i = 0; i < 7; i++) {
      expect((await postJson(t.app, '/api/submissions', validSubmission())).status).toBe(201);
    }
  });

  it('answers 503 with Retry-After when the database is unavailable, storing nothing', async () => {
    t = await createTestApp();
    t.client.close();
    const res = await postJson(t.app, '/api/submissions', validSubmission());
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('db_unavailable');
  });
});

describe('POST /api/submissions under concurrency', () => {
  it('answers 30 simultaneous submissions each with its own stored row', async () => {
    t = await createTestApp({ RATE_LIMITS: 'false' });
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        postJson(t.app, '/api/submissions', validSubmission({ server_name: `Guild ${i}` })),
      ),
    );
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as {
      submission: { id: number; server_name: string };
    }[];
    expect(responses.every((r) => r.status === 201)).toBe(true);
    expect(bodies.map((b) => b.submission.server_name)).toEqual(bodies.map((_, i) => `Guild ${i}`));
    expect(new Set(bodies.map((b) => b.submission.id)).size).toBe(30);
    const stored = await t.client.execute('SELECT id, server_name FROM server_submissions');
    expect(stored.rows).toHaveLength(30);
    for (const b of bodies) {
      expect(stored.rows.find((r) => Number(r.id) === b.submission.id)?.server_name).toBe(b.submission.server_name);
    }
  });
});
