import { eq } from 'drizzle-orm';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { operators, sessions } from '../../db/schema';
import { hashPassword, PBKDF2_ITERATIONS } from '../../src/lib/password';
import { createAdminHarness, ORIGIN } from '../helpers/admin';

let harness: Awaited<ReturnType<typeof createAdminHarness>>;
afterEach(() => harness?.cleanup());

describe('console sign-in', () => {
  it('POST /api/admin/login sets an HttpOnly SameSite=Strict session cookie and returns a CSRF token', async () => {
    harness = await createAdminHarness();
    await harness.addOperator('ops@example.com', 'a long enough password', 'admin');
    const res = await harness.loginResponse('OPS@example.com', 'a long enough password');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { operator: { email: string; role: string }; csrfToken: string };
    expect(body.operator).toMatchObject({ email: 'ops@example.com', role: 'admin' });
    expect(body.csrfToken.length).toBeGreaterThan(30);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^gr_session=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    // Only the token's hash is stored.
    const token = cookie.split(';')[0]!.split('=')[1]!;
    const rows = await harness.db.select().from(sessions);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).not.toBe(token);
  });

  it('uses a __Host- Secure cookie when the site is served over https', async () => {
    harness = await createAdminHarness({
      env: {
        SITE_URL: 'https://guildrank.example',
        IP_HASH_SECRET: 'admin-auth-test-ip-hash-secret-0123456789',
        SESSION_SECRET: 'admin-auth-test-session-secret-0123456789',
      },
    });
    await harness.addOperator('ops@example.com', 'a long enough password');
    const res = await harness.app.request('https://guildrank.example/api/admin/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://guildrank.example' },
      body: JSON.stringify({ email: 'ops@example.com', password: 'a long enough password' }),
    });
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^__Host-gr_session=/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).not.toMatch(/Domain=/);
  });

  it('a new sign-in gives a new token each time', async () => {
    harness = await createAdminHarness();
    await harness.addOperator('ops@example.com', 'a long enough password');
    const a = await harness.login('ops@example.com', 'a long enough password');
    const b = await harness.login('ops@example.com', 'a long enough password');
    expect(a.cookie).not.toBe(b.cookie);
    expect(a.csrf).not.toBe(b.csrf);
  });

  it('rejects a wrong password with 401 and the same message as an unknown email', async () => {
    harness = await createAdminHarness();
    await harness.addOperator('ops@example.com', 'a long enough password');
    const wrong = await harness.loginResponse('ops@example.com', 'nope');
    const unknown = await harness.loginResponse('nobody@example.com', 'nope');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toBe(
      ((await unknown.json()) as { error: { message: string } }).error.message,
    );
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('throttles wrong passwords for one email from one address with 429 and Retry-After, even for the right one', async () => {
    const now = Date.now();
    harness = await createAdminHarness({ deps: { now: () => now } });
    await harness.addOperator('ops@example.com', 'a long enough password');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await harness.loginResponse('ops@example.com', `wrong ${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const throttled = await harness.loginResponse('ops@example.com', 'a long enough password');
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('2');
    expect(((await throttled.json()) as { error: { code: string } }).error.code).toBe('too_many_attempts');
  });

  it('throttles sign-in attempts from one client across accounts', async () => {
    const now = Date.now();
    harness = await createAdminHarness({ deps: { now: () => now } });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await harness.loginResponse(`u${i}@example.com`, 'x')).status);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('refuses a cross-site sign-in post', async () => {
    harness = await createAdminHarness();
    await harness.addOperator('ops@example.com', 'a long enough password');
    const res = await harness.loginResponse('ops@example.com', 'a long enough password', {
      origin: 'https://evil.example',
    });
    expect(res.status).toBe(403);
  });

  it('rehashes a password stored with an older iteration count at sign-in', async () => {
    harness = await createAdminHarness();
    const op = await harness.addOperator('ops@example.com', 'a long enough password');
    await harness.db
      .update(operators)
      .set({ password_hash: await hashPassword('a long enough password', 1000) })
      .where(eq(operators.id, op.id));
    await harness.login('ops@example.com', 'a long enough password');
    const [row] = await harness.db.select().from(operators).where(eq(operators.id, op.id));
    expect(row!.password_hash.split('$')[1]).toBe(String(PBKDF2_ITERATIONS));
  });
});

describe('console sessions', () => {
  it('GET /api/admin/me answers 401 without a cookie and the operator with one', async () => {
    harness = await createAdminHarness();
    expect((await harness.call(null, 'GET', '/api/admin/me')).status).toBe(401);
    const session = await harness.signIn('moderator');
    const res = await harness.call(session, 'GET', '/api/admin/me');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { operator: { role: string } }).operator.role).toBe('moderator');
  });

  it('after logout the old cookie no longer works', async () => {
    harness = await createAdminHarness();
    const session = await harness.signIn();
    const out = await harness.call(session, 'POST', '/api/admin/logout');
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/gr_session=;/);
    expect((await harness.call(session, 'GET', '/api/admin/me')).status).toBe(401);
    expect(await harness.db.select().from(sessions)).toHaveLength(0);
  });

  it('a session idle for more than 30 minutes is refused and deleted', async () => {
    harness = await createAdminHarness();
    const session = await harness.signIn();
    await harness.db.update(sessions).set({ last_seen_at: new Date(Date.now() - 31 * 60_000).toISOString() });
    expect((await harness.call(session, 'GET', '/api/admin/me')).status).toBe(401);
    expect(await harness.db.select().from(sessions)).toHaveLength(0);
  });

  it('a session past its absolute expiry is refused even when active', async () => {
    harness = await createAdminHarness();
    const session = await harness.signIn();
    await harness.db.update(sessions).set({ expires_at: new Date(Date.now() - 1000).toISOString() });
    expect((await harness.call(session, 'GET', '/api/admin/me')).status).toBe(401);
  });
});

describe('CSRF protection', () => {
  it('refuses a write without the X-CSRF-Token header (403) and stores nothing', async () => {
    harness = await createAdminHarness();
    const session = await harness.signIn();
    const res = await harness.call({ cookie: session.cookie, csrf: '' }, 'POST', '/api/admin/content', {
      page: 'home',
      section: 'hero',
      content_key: 'title',
      content_value: 'x',
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('csrf');
    const list = await harness.call(session, 'GET', '/api/admin/content');
    expect(await list.json()).toEqual({ items: [] });
  });

  it('refuses a cross-site form post carrying the session cookie (403)', async () => {
    harness = await createAdminHarness();
    const session = await harness.signIn();
    const res = await harness.app.request('/api/admin/build', {
      method: 'POST',
      headers: {
        cookie: session.cookie,
        origin: 'https://evil.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'x=1',
    });
    expect(res.status).toBe(403);
    expect(harness.rebuild.reasons).toEqual([]);
  });

  it('refuses the right token from another origin (403)', async () => {
    harness = await createAdminHarness();
    const session = await harness.signIn();
    const res = await harness.call(session, 'POST', '/api/admin/build', undefined, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
  });

  it('accepts the token with a same-origin Origin', async () => {
    harness = await createAdminHarness();
    const session = await harness.signIn();
    const res = await harness.call(session, 'POST', '/api/admin/build', undefined, { origin: ORIGIN });
    expect(res.status).toBe(202);
    expect(harness.rebuild.reasons).toHaveLength(1);
  });
});

describe('Cloudflare Access', () => {
  const TEAM = 'guildrank.cloudflareaccess.com';
  const AUD = 'test-audience-tag';

  async function accessHarness() {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' };
    const h = await createAdminHarness({
      env: { CF_ACCESS_TEAM_DOMAIN: TEAM, CF_ACCESS_AUD: AUD },
      deps: { accessKeys: createLocalJWKSet({ keys: [jwk] }) },
    });
    const sign = (email: string, aud = AUD) =>
      new SignJWT({ email })
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(`https://${TEAM}`)
        .setAudience(aud)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey);
    return { h, sign };
  }

  it('a valid Access JWT for a known operator admits and starts a session', async () => {
    const { h, sign } = await accessHarness();
    harness = h;
    await h.addOperator('ops@example.com', 'a long enough password', 'admin');
    const res = await h.app.request('/api/admin/me', {
      headers: { 'cf-access-jwt-assertion': await sign('ops@example.com') },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { operator: { email: string } }).operator.email).toBe('ops@example.com');
    expect(res.headers.get('set-cookie')).toMatch(/gr_session=/);
  });

  it('refuses an Access JWT with the wrong audience or for an unknown email', async () => {
    const { h, sign } = await accessHarness();
    harness = h;
    await h.addOperator('ops@example.com', 'a long enough password', 'admin');
    const wrongAud = await h.app.request('/api/admin/me', {
      headers: { 'cf-access-jwt-assertion': await sign('ops@example.com', 'other') },
    });
    const unknown = await h.app.request('/api/admin/me', {
      headers: { 'cf-access-jwt-assertion': await sign('stranger@example.com') },
    });
    expect(wrongAud.status).toBe(401);
    expect(unknown.status).toBe(401);
  });

  it('ignores the Access header when Access is not configured', async () => {
    const { sign } = await accessHarness().then((x) => {
      x.h.cleanup();
      return x;
    });
    harness = await createAdminHarness();
    await harness.addOperator('ops@example.com', 'a long enough password', 'admin');
    const res = await harness.app.request('/api/admin/me', {
      headers: { 'cf-access-jwt-assertion': await sign('ops@example.com') },
    });
    expect(res.status).toBe(401);
  });
});
