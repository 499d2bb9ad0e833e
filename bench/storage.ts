// The storage seam (db/client.ts) and why it holds what it holds: the native `libsql` connection
// that keeps statements prepared (db/prepared.ts), against the same reads through @libsql/client
// and drizzle; and the lock handling (busy timeout 0, retried on timers by LockTolerantClient),
// against SQLite's own busy timeout, while another connection holds the write lock.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createClient } from '@libsql/client';
import { eq } from 'drizzle-orm';
import NativeDatabase from 'libsql';
import { openDb } from '../db/client';
import { insertFakeServers } from '../db/fake';
import { migrateDb } from '../db/migrate';
import { getBadgeFacts, randomServerSlugs } from '../db/queries/badges';
import { selectServerRows } from '../db/queries/server-rows';
import { discordServers } from '../db/schema';
import type { BenchModule } from './types';

const ms = (v: number) => v.toFixed(1);
const us = (v: number) => (v * 1000).toFixed(0);

/** The median of `runs` timings of `f` (ms). */
async function median(runs: number, f: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await f();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

/** Per-call mean and p99 (ms) of `f` over `args`, one call at a time. */
async function perCall<A>(args: readonly A[], f: (a: A) => Promise<unknown>): Promise<{ mean: number; p99: number }> {
  const times: number[] = [];
  for (const a of args) {
    const t = performance.now();
    await f(a);
    times.push(performance.now() - t);
  }
  times.sort((x, y) => x - y);
  return {
    mean: times.reduce((s, v) => s + v, 0) / times.length,
    p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))]!,
  };
}

/**
 * One write while another connection of the process holds the write lock and gives it back after
 * `holdMs` (on a timer): how long the event loop stalled, how long the write took, and whether it
 * was stored.
 */
async function writeUnderLock(path: string, holdMs: number, write: () => Promise<unknown>) {
  const holder = new NativeDatabase(path);
  holder.exec('BEGIN IMMEDIATE');
  holder.exec("UPDATE job_state SET last_run_at = 'held' WHERE 0");
  const release = setTimeout(() => holder.exec('COMMIT'), holdMs);
  const lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  // Let the monitor take its first sample before the write.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const started = performance.now();
  let outcome = 'stored';
  try {
    await write();
  } catch (err) {
    outcome = `failed (${String((err as { code?: unknown }).code ?? err)})`;
  }
  const took = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, holdMs + 20));
  lag.disable();
  clearTimeout(release);
  if (holder.inTransaction) holder.exec('COMMIT');
  holder.close();
  return { stallMs: lag.max / 1e6, took, outcome };
}

export const bench: BenchModule = async (ctx) => {
  const size = ctx.quick ? 10_000 : 100_000;
  const dir = join(ctx.tmp, 'storage');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'storage.db');
  const url = `file:${path}`;
  const { db, client } = await openDb({ url });
  await migrateDb(db);
  ctx.log(`storage: seeding ${size.toLocaleString('en-US')} listings`);
  await insertFakeServers(client, size);
  const slugs = (await randomServerSlugs(db, 2_000)).slice(0, 2_000);
  const n = size.toLocaleString('en-US');

  // Reads: every listing with every column (the build's read), and a badge's one-row lookup by slug.
  const everyRowClient = await median(5, () => db.select().from(discordServers));
  const everyRowNative = await median(5, () => selectServerRows(db, db.select().from(discordServers)));
  const byClient = (slug: string) => db.select().from(discordServers).where(eq(discordServers.slug, slug)).limit(1);
  await perCall(slugs.slice(0, 200), byClient);
  await perCall(slugs.slice(0, 200), (s) => getBadgeFacts(db, s));
  const lookupClient = await perCall(slugs, byClient);
  const lookupNative = await perCall(slugs, (s) => getBadgeFacts(db, s));
  client.close();

  // Locks: 300 ms held by another connection, one insert meanwhile.
  const HOLD = 300;
  const BUSY_TIMEOUT = 2_000;
  const insert = (c: { execute(sql: string): Promise<unknown> }, tag: string) =>
    c.execute(`INSERT INTO job_state (name, last_run_at) VALUES ('${tag}', 'now')`);
  const plain = createClient({ url, timeout: BUSY_TIMEOUT });
  const waited = await writeUnderLock(path, HOLD, () => insert(plain, 'busy-timeout'));
  plain.close();
  const seam = await openDb({ url });
  const retried = await writeUnderLock(path, HOLD, () => insert(seam.client, 'retried'));
  seam.client.close();

  const ratio = (a: number, b: number) => (a / b).toFixed(1);
  return [
    {
      title: 'Storage seam (db/client.ts)',
      description: `What the seam's two departures from a plain @libsql/client buy, on a libSQL file of ${n} db:fake listings: the native \`libsql\` connection keeping statements prepared (db/prepared.ts, used by selectServerRows, the badge lookup, the events group commit and the rank job), against the same select through drizzle and @libsql/client; and busy timeout 0 retried on timers (LockTolerantClient), against SQLite's own busy timeout (${BUSY_TIMEOUT} ms), for one insert while another connection of the process holds the write lock for ${HOLD} ms.`,
      rows: [
        ['read', 'drizzle + @libsql/client', 'native prepared (seam)', 'ratio'],
        [
          `every listing, all columns (${n} rows), median of 5`,
          `${ms(everyRowClient)} ms`,
          `${ms(everyRowNative)} ms`,
          `${ratio(everyRowClient, everyRowNative)}×`,
        ],
        [
          `one listing by slug (${slugs.length.toLocaleString('en-US')} random), mean`,
          `${us(lookupClient.mean)} µs`,
          `${us(lookupNative.mean)} µs`,
          `${ratio(lookupClient.mean, lookupNative.mean)}×`,
        ],
        [
          'one listing by slug, p99',
          `${us(lookupClient.p99)} µs`,
          `${us(lookupNative.p99)} µs`,
          `${ratio(lookupClient.p99, lookupNative.p99)}×`,
        ],
        ['write under a held lock', `busy timeout ${BUSY_TIMEOUT} ms`, 'timeout 0, retried on timers (seam)', ''],
        ['event loop stalled (max)', `${ms(waited.stallMs)} ms`, `${ms(retried.stallMs)} ms`, ''],
        [
          'the insert',
          `${waited.outcome} after ${ms(waited.took)} ms`,
          `${retried.outcome} after ${ms(retried.took)} ms`,
          '',
        ],
      ],
      notes: [
        "SQLite's busy timeout waits inside the synchronous native call: the event loop, and with it every other request and the timer that would release the lock, stops for as long as the lock is held (up to the timeout). The seam fails at once and retries on timers, so requests keep being served while it waits.",
      ],
    },
  ];
};
