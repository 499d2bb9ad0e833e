// The console session sweep (functions/_app/jobs/session-sweep.ts): one pass deletes exactly the
// sessions the auth middleware would refuse, and it runs at every sign-in, on Node's timer and
// from the Worker's Cron Trigger.
import { afterEach, describe, expect, it } from 'vitest';
import { createOperator } from '../../db/queries/operators';
import {
  createSession,
  getActiveSession,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
  touchSession,
} from '../../db/queries/sessions';
import { sessions } from '../../db/schema';
import { run, SESSION_SWEEP_EVERY_MS } from '../../functions/_app/jobs/session-sweep';
import worker from '../../functions/worker';
import { sha256Hex } from '../../src/lib/hash';
import { startLibsqlHttpServer } from '../fixtures/libsql-http-server';
import { createAdminHarness } from '../helpers/admin';
import { createTestDb, type TestDb } from '../helpers/db';
import { readWranglerConfig } from '../helpers/wrangler-config';

const T0 = Date.parse('2030-05-01T08:00:00.000Z');
const MINUTE = 60_000;

let cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function testDb(): Promise<TestDb> {
  const tdb = await createTestDb();
  cleanups.push(tdb.cleanup);
  return tdb;
}

/** A session started at `startedAt` whose last request came at `lastSeenAt`; returns its cookie token. */
async function sessionOf(db: TestDb['db'], operatorId: number, startedAt: number, lastSeenAt = startedAt) {
  const { token } = await createSession(db, operatorId, startedAt);
  await touchSession(db, await sha256Hex(token), lastSeenAt);
  return token;
}

describe('session sweep', () => {
  it('deletes sessions idle 30 minutes or past 12 hours, and keeps the live ones', async () => {
    const { db } = await testDb();
    const op = await createOperator(db, {
      email: 'ops@example.com',
      password: 'a long enough password',
      role: 'admin',
    });
    const now = T0 + SESSION_ABSOLUTE_MS;
    const live = await sessionOf(db, op.id, now - 10 * MINUTE, now - MINUTE);
    const nearlyIdle = await sessionOf(db, op.id, now - 2 * SESSION_IDLE_MS, now - SESSION_IDLE_MS + 1);
    const nearlyOld = await sessionOf(db, op.id, now - SESSION_ABSOLUTE_MS + 1, now - MINUTE);
    const idle = await sessionOf(db, op.id, now - 2 * SESSION_IDLE_MS, now - SESSION_IDLE_MS);
    const tooOld = await sessionOf(db, op.id, now - SESSION_ABSOLUTE_MS, now - MINUTE);
    const abandoned = await sessionOf(db, op.id, T0 - SESSION_ABSOLUTE_MS, T0 - SESSION_ABSOLUTE_MS);

    expect(await run({ db }, now)).toBe(3);
    expect(await db.select().from(sessions)).toHaveLength(3);
    // Exactly the sessions the auth middleware still admits at that moment are left.
    for (const token of [live, nearlyIdle, nearlyOld]) expect(await getActiveSession(db, token, now)).not.toBeNull();
    for (const token of [idle, tooOld, abandoned]) expect(await getActiveSession(db, token, now)).toBeNull();
    // A second pass finds nothing left to do.
    expect(await run({ db }, now)).toBe(0);
  });

  it('runs at every sign-in: an operator signing in sweeps the sessions others left to expire', async () => {
    const clock = { t: T0 };
    const h = await createAdminHarness({ deps: { now: () => clock.t } });
    cleanups.push(h.cleanup);
    await h.addOperator('first@example.com', 'a long enough password');
    await h.addOperator('second@example.com', 'a long enough password');
    const first = await h.login('first@example.com', 'a long enough password');
    expect(await h.db.select().from(sessions)).toHaveLength(1);

    clock.t += SESSION_IDLE_MS;
    await h.login('second@example.com', 'a long enough password');
    const rows = await h.db.select().from(sessions);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.created_at).toBe(new Date(clock.t).toISOString());
    expect((await h.call(first, 'GET', '/api/admin/me')).status).toBe(401);
  });

  it('a sign-in keeps the sessions that are still live', async () => {
    const clock = { t: T0 };
    const h = await createAdminHarness({ deps: { now: () => clock.t } });
    cleanups.push(h.cleanup);
    await h.addOperator('ops@example.com', 'a long enough password');
    const first = await h.login('ops@example.com', 'a long enough password');
    clock.t += SESSION_IDLE_MS - 1;
    await h.login('ops@example.com', 'a long enough password');
    expect(await h.db.select().from(sessions)).toHaveLength(2);
    expect((await h.call(first, 'GET', '/api/admin/me')).status).toBe(200);
  });
});

describe('the scheduled session sweep', () => {
  it("wrangler.toml's Cron Trigger runs on the beat npm start's timer keeps", async () => {
    const rawConfig = await readWranglerConfig();
    const crons = (rawConfig as { triggers?: { crons?: string[] } }).triggers?.crons ?? [];
    expect(crons).toContain(`*/${SESSION_SWEEP_EVERY_MS / MINUTE} * * * *`);
  });

  it("the Worker's scheduled handler sweeps the database it is bound to, at the trigger's time", async () => {
    const tdb = await testDb();
    const op = await createOperator(tdb.db, {
      email: 'ops@example.com',
      password: 'a long enough password',
      role: 'admin',
    });
    const now = T0 + SESSION_ABSOLUTE_MS;
    const live = await sessionOf(tdb.db, op.id, now - MINUTE);
    await sessionOf(tdb.db, op.id, now - 2 * SESSION_IDLE_MS, now - SESSION_IDLE_MS - MINUTE);
    // The Worker reaches the database over HTTP (libSQL's Hrana), as it reaches Turso.
    const libsql = await startLibsqlHttpServer({ file: tdb.url.replace(/^file:/, '') });
    cleanups.push(() => libsql.stop());
    const pending: Promise<unknown>[] = [];
    worker.scheduled(
      { cron: '*/15 * * * *', scheduledTime: now },
      { ASSETS: { fetch: async () => new Response(null, { status: 404 }) }, DATABASE_URL: libsql.url },
      { waitUntil: (p) => void pending.push(p) },
    );
    // The sweep, and the newsletter's pass in the same invocation (no issue: it writes nothing).
    expect(pending).toHaveLength(2);
    await Promise.all(pending);
    const rows = await tdb.db.select().from(sessions);
    expect(rows).toHaveLength(1);
    expect(await getActiveSession(tdb.db, live, now)).not.toBeNull();
  });
});
