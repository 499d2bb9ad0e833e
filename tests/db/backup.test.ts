// npm run db:backup / db:restore, run as the CLI scripts against a database another
// process is writing to as fast as it can.
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createClient } from '@libsql/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb } from '../helpers/db';
import { runScript } from '../helpers/run-script';

const root = resolve(import.meta.dirname, '../..');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

const WRITER = `
import { createClient } from '@libsql/client';
const client = createClient({ url: process.env.DB_URL });
await client.execute('PRAGMA journal_mode = WAL');
await client.execute('PRAGMA busy_timeout = 10000');
// As the server writes (db/client.ts): no fsync per commit, so the writer's pace does not hang on
// a disk the suite's builds keep busy (100 writes took over 30 s that way in a clean-clone run).
await client.execute('PRAGMA synchronous = NORMAL');
for (let i = 0; ; i++) {
  const email = 'load-' + i + '@example.com';
  await client.execute({ sql: 'INSERT INTO newsletter_subscribers (email) VALUES (?)', args: [email] });
  // Acknowledged once the line is in the pipe: the local client's execute resolves without a turn of
  // the event loop, so a write queued behind a full pipe would never be flushed and the test would
  // stop hearing of rows the database still gets.
  await new Promise((ok) => process.stdout.write('ack ' + email + '\\n', ok));
}
`;

/** A separate process inserting rows one by one; `acks` holds every insert it saw committed. */
function startWriter(url: string) {
  const acks: string[] = [];
  const child: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', WRITER], {
    cwd: root,
    env: { ...process.env, DB_URL: url },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let buffer = '';
  child.stdout?.on('data', (d: Buffer) => {
    buffer += d.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('ack ')) acks.push(line.slice(4));
  });
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  /** For a failure message: whether it still runs, and how far it got. */
  const state = () =>
    `writer ${child.exitCode === null && child.signalCode === null ? 'running' : `exited (${child.signalCode ?? child.exitCode})`}, ${acks.length} writes acknowledged`;
  return { acks, stop, state, pid: child.pid };
}

const waitFor = async (cond: () => boolean, what: () => string, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what()}`);
    await new Promise((ok) => setTimeout(ok, 20));
  }
};

const emailsIn = async (path: string) => {
  const client = createClient({ url: `file:${path}` });
  try {
    const rs = await client.execute('SELECT email FROM newsletter_subscribers ORDER BY id');
    const check = await client.execute('PRAGMA integrity_check');
    return { emails: rs.rows.map((r) => String(r.email)), integrity: String(check.rows[0]?.[0]) };
  } finally {
    client.close();
  }
};

describe('db:backup and db:restore', () => {
  it('restores a backup taken under write load with every row acknowledged before it, as a consistent prefix', async () => {
    const tdb = await createTestDb();
    cleanups.push(() => tdb.cleanup());
    const writer = startWriter(tdb.url);
    cleanups.push(() => writer.stop());
    await waitFor(
      () => writer.acks.length >= 200,
      () => `200 acknowledged writes (${writer.state()})`,
    );

    const ackedBefore = writer.acks.slice();
    const backupPath = join(tdb.dir, 'backups', 'snapshot.db');
    const backup = await runScript('scripts/db-backup.ts', ['--db', tdb.url, '--out', backupPath]);
    expect(backup.out).toContain('integrity ok');
    expect(backup.code).toBe(0);
    // Under write load: the writer committed while the backup ran (hundreds of writes a second
    // against a script that takes a second or more to start), and goes on after it.
    const atBackupEnd = writer.acks.length;
    expect(atBackupEnd, writer.state()).toBeGreaterThan(ackedBefore.length);
    await waitFor(
      () => writer.acks.length >= atBackupEnd + 100,
      () => `100 more writes after the backup's ${atBackupEnd} (${writer.state()})`,
    );

    // The live database is open in the writer: restore refuses to overwrite it.
    const refused = await runScript('scripts/db-restore.ts', [backupPath, '--db', tdb.url]);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(new RegExp(`open in process [0-9, ]*\\b${writer.pid}\\b`));
    await writer.stop();

    const target = join(tdb.dir, 'restored.db');
    const restore = await runScript('scripts/db-restore.ts', [backupPath, '--db', `file:${target}`]);
    expect(restore.out).toContain('integrity ok');
    expect(restore.code).toBe(0);

    const restored = await emailsIn(target);
    expect(restored.integrity).toBe('ok');
    for (const email of ackedBefore) expect(restored.emails).toContain(email);
    // A snapshot of one moment: exactly the first N writes, no gaps, nothing from after it.
    expect(restored.emails).toEqual(writer.acks.slice(0, restored.emails.length));
    expect(restored.emails.length).toBeLessThan(writer.acks.length);
    // Three scripts in child processes and a writer process: more than a request-sized test's 30 s on a busy machine.
  }, 120_000);

  it('refuses to restore a file that is not a healthy database and leaves the target untouched', async () => {
    const tdb = await createTestDb();
    cleanups.push(() => tdb.cleanup());
    await tdb.client.execute("INSERT INTO newsletter_subscribers (email) VALUES ('keep@example.com')");
    const bogus = join(tdb.dir, 'bogus.db');
    writeFileSync(bogus, 'SQLite format 3\0 this is not really a database'.repeat(200));
    const target = join(tdb.dir, 'test.db');
    const result = await runScript('scripts/db-restore.ts', [bogus, '--db', `file:${target}`, '--force']);
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/not a readable database|integrity check|does not hold/);
    const rs = await tdb.client.execute('SELECT email FROM newsletter_subscribers');
    expect(rs.rows.map((r) => r.email)).toEqual(['keep@example.com']);
  });

  it('refuses to back up a Turso URL and points to its point-in-time restore', async () => {
    const result = await runScript('scripts/db-backup.ts', ['--db', 'libsql://example-org.turso.io']);
    expect(result.code).toBe(1);
    expect(result.out).toContain('point-in-time');
  });
});
