// The console sign-in throttle: per client address and per (email, address), counted in the
// database, on a clock the tests move (deps.now) so every wait is exact.
import { afterEach, describe, expect, it } from 'vitest';
import { openDb } from '../../db/client';
import { signInFailures } from '../../db/schema';
import { createApp } from '../../functions/_app/app';
import { SIGN_IN_THROTTLE } from '../../src/lib/sign-in-throttle';
import { createAdminHarness, ORIGIN } from '../helpers/admin';

const PASSWORD = 'a long enough password';
const ADDRESS_A = '198.51.100.7';
const ADDRESS_B = '203.0.113.9';

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
  cleanups = [];
});

/** An app with one operator and a clock that only moves when told; `env` overrides the defaults. */
async function throttleHarness(env: Record<string, string> = {}) {
  const clock = { t: Date.parse('2030-03-01T12:00:00.000Z') };
  const harness = await createAdminHarness({ env, deps: { now: () => clock.t } });
  cleanups.push(harness.cleanup);
  await harness.addOperator('ops@example.com', PASSWORD);
  const attempt = (email: string, password: string, ip: string, app = harness.app) =>
    Promise.resolve(
      app.request('/api/admin/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN, 'cf-connecting-ip': ip },
        body: JSON.stringify({ email, password }),
      }),
    );
  return { harness, clock, attempt };
}

/** Everything a client can observe of an answer, but the request id (random per request, whoever asks). */
async function observed(res: Response) {
  const headers = [...res.headers.entries()].filter(([name]) => name !== 'x-request-id').sort();
  return { status: res.status, headers, body: await res.text() };
}

const statusesOf = async (responses: Promise<Response>[]) => (await Promise.all(responses)).map((r) => r.status);

describe('console sign-in throttle', () => {
  it('failures from one address never delay the operator signing in from another', async () => {
    const { clock, attempt } = await throttleHarness();
    const fromA: number[] = [];
    for (let i = 0; i < SIGN_IN_THROTTLE.freePerPair; i++) {
      fromA.push((await attempt('ops@example.com', `wrong ${i}`, ADDRESS_A)).status);
    }
    // Then enough other emails from A to throttle the address as a whole.
    for (let i = SIGN_IN_THROTTLE.freePerPair; i < SIGN_IN_THROTTLE.freePerAddress; i++) {
      fromA.push((await attempt(`guess${i}@example.com`, 'wrong', ADDRESS_A)).status);
    }
    expect(fromA.every((s) => s === 401)).toBe(true);
    expect((await attempt('ops@example.com', PASSWORD, ADDRESS_A)).status).toBe(429);
    expect((await attempt('someone-else@example.com', PASSWORD, ADDRESS_A)).status).toBe(429);

    const fromB = await attempt('ops@example.com', PASSWORD, ADDRESS_B);
    expect(fromB.status).toBe(200);
    expect(fromB.headers.get('set-cookie')).toMatch(/gr_session=/);
    // The same holds however long A keeps at it.
    clock.t += 60_000;
    expect((await attempt('ops@example.com', 'wrong again', ADDRESS_A)).status).toBe(401);
    expect((await attempt('ops@example.com', PASSWORD, ADDRESS_B)).status).toBe(200);
  });

  it('an unknown email gets the same status, body and headers as a known one, in every state', async () => {
    const { clock, attempt } = await throttleHarness();
    // The known email from A and an unknown one from B go through the same script side by side.
    const both = async (password: { known: string; unknown: string }) => {
      const known = await observed(await attempt('ops@example.com', password.known, ADDRESS_A));
      const unknown = await observed(await attempt('nobody@example.com', password.unknown, ADDRESS_B));
      expect(unknown).toEqual(known);
      return known;
    };
    const wrong = { known: 'wrong', unknown: 'wrong' };
    const seen: [number, string | undefined][] = [];
    const step = async (password = wrong) => {
      const a = await both(password);
      seen.push([a.status, a.headers.find(([k]) => k === 'retry-after')?.[1]]);
    };
    for (let i = 0; i < SIGN_IN_THROTTLE.freePerPair; i++) await step();
    await step();
    // Throttled: even the right password is refused unchecked, exactly like any password for nobody.
    await step({ known: PASSWORD, unknown: PASSWORD });
    clock.t += 1000;
    await step();
    clock.t += 1000;
    await step();
    await step();
    expect(seen).toEqual([
      [401, undefined],
      [401, undefined],
      [401, undefined],
      [401, undefined],
      [401, undefined],
      [429, '2'],
      [429, '2'],
      [429, '1'],
      [401, undefined],
      [429, '4'],
    ]);
  });

  it('each further failure doubles the wait, and a good password after it signs in and clears the failures', async () => {
    const { harness, clock, attempt } = await throttleHarness();
    for (let i = 0; i < SIGN_IN_THROTTLE.freePerPair; i++) await attempt('ops@example.com', 'wrong', ADDRESS_A);
    const waits: string[] = [];
    for (let i = 0; i < 4; i++) {
      const refused = await attempt('ops@example.com', 'wrong', ADDRESS_A);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('too_many_attempts');
      const wait = refused.headers.get('retry-after')!;
      waits.push(wait);
      clock.t += Number(wait) * 1000;
      expect((await attempt('ops@example.com', 'wrong', ADDRESS_A)).status).toBe(401);
    }
    expect(waits).toEqual(['2', '4', '8', '16']);

    clock.t += 32_000;
    expect((await attempt('ops@example.com', PASSWORD, ADDRESS_A)).status).toBe(200);
    expect(await harness.db.select().from(signInFailures)).toEqual([]);
    // A slip right after signing in starts from nothing again.
    expect((await attempt('ops@example.com', 'wrong', ADDRESS_A)).status).toBe(401);
    expect((await attempt('ops@example.com', PASSWORD, ADDRESS_A)).status).toBe(200);
  });

  it('holds across two apps sharing one database file', async () => {
    const { harness, clock, attempt } = await throttleHarness();
    const second = await openDb({ url: harness.url });
    cleanups.push(() => second.client.close());
    const other = createApp({ db: second.db, env: harness.env, now: () => clock.t });

    // Failures alternate between the two apps, as requests spread over processes or isolates would.
    for (let i = 0; i < SIGN_IN_THROTTLE.freePerPair; i++) {
      const app = i % 2 === 0 ? harness.app : other;
      expect((await attempt('ops@example.com', 'wrong', ADDRESS_A, app)).status).toBe(401);
    }
    const refused = await attempt('ops@example.com', PASSWORD, ADDRESS_A, other);
    expect(refused.status).toBe(429);
    expect((await attempt('ops@example.com', PASSWORD, ADDRESS_A, harness.app)).status).toBe(429);
    clock.t += 2000;
    expect((await attempt('ops@example.com', PASSWORD, ADDRESS_A, other)).status).toBe(200);
  });

  it('counts wrong passwords sent in parallel: only the free ones are checked', async () => {
    const { harness, attempt } = await throttleHarness();
    const statuses = await statusesOf(Array.from({ length: 12 }, () => attempt('ops@example.com', 'wrong', ADDRESS_A)));
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_THROTTLE.freePerPair);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - SIGN_IN_THROTTLE.freePerPair);
    // Refused attempts leave no row: only checked failures are remembered.
    expect(await harness.db.select().from(signInFailures)).toHaveLength(SIGN_IN_THROTTLE.freePerPair);
  });

  it('forgets failures older than a day: swept on the next attempt, and no longer counted', async () => {
    const { harness, clock, attempt } = await throttleHarness();
    for (let i = 0; i < SIGN_IN_THROTTLE.freePerPair; i++) await attempt('ops@example.com', 'wrong', ADDRESS_A);
    await attempt(`other@example.com`, 'wrong', ADDRESS_B);
    expect(await harness.db.select().from(signInFailures)).toHaveLength(SIGN_IN_THROTTLE.freePerPair + 1);
    expect((await attempt('ops@example.com', PASSWORD, ADDRESS_A)).status).toBe(429);

    clock.t += SIGN_IN_THROTTLE.windowMs + 1000;
    expect((await attempt('ops@example.com', 'wrong', ADDRESS_A)).status).toBe(401);
    const rows = await harness.db.select().from(signInFailures);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.created_at).toBe(new Date(clock.t).toISOString());
  });

  it('stores neither the address nor the email in the clear', async () => {
    const { harness, attempt } = await throttleHarness();
    await attempt('ops@example.com', 'wrong', ADDRESS_A);
    const [row] = await harness.db.select().from(signInFailures);
    expect(JSON.stringify(row)).not.toContain('ops@example.com');
    expect(JSON.stringify(row)).not.toContain(ADDRESS_A);
  });

  it('still throttles with RATE_LIMITS=false, which switches off only the public limits', async () => {
    const { harness, clock, attempt } = await throttleHarness({ RATE_LIMITS: 'false' });
    expect(harness.env.RATE_LIMITS).toBe(false);
    for (let i = 0; i < SIGN_IN_THROTTLE.freePerPair; i++) {
      expect((await attempt('ops@example.com', 'wrong', ADDRESS_A)).status).toBe(401);
    }
    const refused = await attempt('ops@example.com', PASSWORD, ADDRESS_A);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('too_many_attempts');
    clock.t += 2000;
    expect((await attempt('ops@example.com', PASSWORD, ADDRESS_A)).status).toBe(200);
  });
});
