// The file client and the kept-prepared connection against a write lock another process holds:
// statements wait it out on timers (never inside SQLite, which would block the event loop),
// and the connections that met it do not keep a snapshot from before it was released.
import { createClient } from '@libsql/client';
import { afterEach, describe, expect, it } from 'vitest';
import { isBusyError } from '../../db/busy';
import { isDbUnavailable } from '../../db/errors';
import { dbHealth } from '../../db/queries/health';
import { insertEvents } from '../../db/queries/interactions';
import { insertSubmission } from '../../db/queries/submissions';
import { createTestDb, type TestDb } from '../helpers/db';
import { HOLDER_EMAIL, holdWriteLock } from '../helpers/lock-holder';

let t: TestDb | undefined;
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  t?.cleanup();
  t = undefined;
});

async function lockedDb() {
  t = await createTestDb();
  const lock = await holdWriteLock(t.url.slice('file:'.length));
  stops.push(lock.stop);
  return { tdb: t, lock };
}

/** Whether `promise` is still pending after everything already queued on the event loop has run. */
const isPending = (promise: Promise<unknown>) =>
  Promise.race([
    promise.then(
      () => false,
      () => false,
    ),
    new Promise<boolean>((resolve) => setImmediate(() => resolve(true))),
  ]);

const event = {
  interaction_type: 'view' as const,
  target_type: 'server' as const,
  target_id: null,
  server_id: null,
  metadata: null,
  session_id: 's',
  user_agent: null,
  ip_address: 'h',
  campaign_id: null,
  referrer: null,
  utm_source: null,
  utm_medium: null,
  utm_campaign: null,
};

const submission = {
  server_name: 'Waited',
  server_description: 'd',
  category: 'Gaming',
  invite_link: 'https://discord.gg/waited',
  server_image: null,
  contact_email: 'a@example.com',
  features: null,
  member_count: 3,
  active_users: 1,
  submitter_name: 'S',
  is_owner: false,
};

describe('writes against a database another process has locked', () => {
  it('wait out a short lock on timers and are stored once it is released', async () => {
    const { tdb, lock } = await lockedDb();
    // Their first attempts run at once and meet the lock.
    const events = insertEvents(tdb.db, [event, event]);
    const submissions = insertSubmission(tdb.db, submission);
    const pooled = tdb.client.execute(
      "INSERT INTO newsletter_subscribers (email, source) VALUES ('w@example.com', 'homepage_signup')",
    );
    // Health answers meanwhile (its probe does not wait either), and says why writes are waiting.
    expect(await dbHealth(tdb.db)).toBe('degraded');
    for (const write of [events, submissions, pooled]) expect(await isPending(write)).toBe(true);

    await lock.release();
    expect(await events).toBe(2);
    expect((await submissions).server_name).toBe('Waited');
    expect((await pooled).rowsAffected).toBe(1);
    expect(await dbHealth(tdb.db)).toBe('up');
    // The holder's commit is visible on the same connections: none kept an old snapshot.
    const emails = (await tdb.client.execute('SELECT email FROM newsletter_subscribers ORDER BY id')).rows;
    expect(emails.map((r) => r.email)).toEqual([HOLDER_EMAIL, 'w@example.com']);
    expect(await insertEvents(tdb.db, [event])).toBe(1);
    expect((await tdb.client.execute('SELECT count(*) AS n FROM user_interactions')).rows[0]!.n).toBe(3);
  });

  it('start an interactive transaction once the lock is released, and keep its connection until it commits', async () => {
    const { tdb, lock } = await lockedDb();
    const started = tdb.client.transaction('write');
    expect(await isPending(started)).toBe(true);
    // A write on the pool also meets the lock, so the pool is renewed once the transaction settles.
    const pooled = tdb.client.execute(
      "INSERT INTO newsletter_subscribers (email, source) VALUES ('p@example.com', 'homepage_signup')",
    );
    await lock.release();
    const tx = await started;
    await tx.execute("INSERT INTO newsletter_subscribers (email, source) VALUES ('tx@example.com', 'homepage_signup')");
    await tx.commit();
    expect((await pooled).rowsAffected).toBe(1);
    const emails = (await tdb.client.execute('SELECT email FROM newsletter_subscribers ORDER BY email')).rows;
    expect(emails.map((r) => r.email).sort()).toEqual([HOLDER_EMAIL, 'p@example.com', 'tx@example.com'].sort());
  });

  it('fail with an error the app answers 503 when the lock outlasts the budget', async () => {
    const { tdb } = await lockedDb();
    // A client without the retries shows the error libSQL gives, at once.
    const raw = createClient({ url: tdb.url, timeout: 0 });
    stops.push(async () => raw.close());
    const err = await raw
      .execute("INSERT INTO newsletter_subscribers (email, source) VALUES ('r@example.com', 'homepage_signup')")
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SQLITE_BUSY' });
    expect(isBusyError(err)).toBe(true);
    expect(isDbUnavailable(err)).toBe(true);
    // Through the app's client the same write gives up after its budget with that error.
    const waited = await insertEvents(tdb.db, [event]).catch((e: unknown) => e);
    expect(isBusyError(waited)).toBe(true);
    expect(isDbUnavailable(waited)).toBe(true);
  });
});
