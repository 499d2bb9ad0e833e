import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openDb } from '../db/client';
import { insertFakeServers } from '../db/fake';
import { migrateDb } from '../db/migrate';
import { insertFakeHistory } from '../db/queries/fake-history';
import { countDueServers, listDueServers } from '../db/queries/freshness';
import { listGrowingServers } from '../db/queries/newsletter';
import { nicheShareMedians } from '../db/queries/rank';
import { findServerSlug } from '../db/queries/servers';
import { loadEnv } from '../functions/_app/env';
import { evaluateAnomalies, recomputeRanks } from '../functions/_app/jobs/rank';
import { JOBS } from '../functions/_app/jobs/schedule';
import { seconds } from './lib/measure';
import type { BenchModule } from './types';

/** The longest an event-loop turn may wait on one of these passes (a page's whole budget). */
const STALL_TARGET_MS = 100;

/**
 * Runs one pass and answers its wall time and the longest the event loop waited meanwhile: what
 * every request the server held then waited on top of its own time (perf_hooks'
 * monitorEventLoopDelay, 10 ms resolution). Before the recompute went in steps, its longest stall
 * was its whole length.
 */
async function watched<T>(pass: () => Promise<T>): Promise<{ out: T; ms: number; stallMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  // The monitor measures a wait from its previous sample: let it take some before the pass.
  await new Promise((resolve) => setTimeout(resolve, 30));
  const started = performance.now();
  const out = await pass();
  const ms = performance.now() - started;
  // The monitor records a wait when its timer runs, after the pass.
  await new Promise((resolve) => setTimeout(resolve, 30));
  delay.disable();
  return { out, ms, stallMs: delay.max / 1e6 };
}

/**
 * Rank recompute at 100,000 listings (10,000 with --quick): db:fake's servers, every one checked,
 * with eight history rows (the last 7 days and one 29 days ago), views and join clicks on one in
 * ten, open reports and flags on a few. Measures the first recompute (every row written), a second
 * one with nothing changed, and the anomaly pass over every listing's history; then the longest
 * event-loop stall of each scheduled pass that reads every listing or the due ones.
 */
export const bench: BenchModule = async (ctx) => {
  mkdirSync(ctx.tmp, { recursive: true });
  const size = ctx.quick ? 10_000 : 100_000;
  const now = new Date();
  const url = `file:${join(ctx.tmp, 'rank.db')}`;
  const { db, client } = await openDb({ url });
  try {
    await migrateDb(db);
    ctx.log(`seeding ${size.toLocaleString('en-US')} listings with history…`);
    await insertFakeServers(client, size);
    const { snapshots, interactions } = await insertFakeHistory(db, now);

    const first = await watched(() => recomputeRanks(db, now));
    ctx.log(`first recompute: ${first.out.updated} rows written in ${seconds(first.out.ms)} s`);
    const second = await watched(() => recomputeRanks(db, now));
    const anomalies = await watched(() => evaluateAnomalies(db, now));
    const medians = await watched(() => nicheShareMedians(db));
    const due = await watched(async () => [
      await countDueServers(db, now.getTime()),
      (await listDueServers(db, now.getTime(), { limit: 160 })).length,
    ]);
    const env = loadEnv({ DATABASE_URL: url, SITE_URL: 'http://127.0.0.1' });
    const clock = await watched(() =>
      JOBS['placement-clock'].run({ db, env, runtime: 'node', log: () => {} }, now.getTime()),
    );
    const growing = await watched(() => listGrowingServers(db, new Date(now.getTime() - 7 * 86_400_000).toISOString()));
    const fallback = await watched(async () => [
      await findServerSlug(db, 'no-such-server-anywhere'),
      await findServerSlug(db, 'valorant-lfg-hub'),
    ]);
    const n = (v: number) => v.toLocaleString('en-US');
    const stalls: [string, { ms: number; stallMs: number }][] = [
      ['rank recompute, first (every row written)', first],
      ['rank recompute, nothing changed (every 10 minutes)', second],
      ['anomaly pass over every listing checked (after each refresh pass)', anomalies],
      ["niche medians (the anomaly pass's, when it judges any listing)", medians],
      [`refresh pass: count and read the due listings (${n(due.out[0]!)} due)`, due],
      ['placement clock (every minute)', clock],
      ["newsletter: the week's fastest-growing listings (weekly)", growing],
      ['two unknown /server/ URLs: the name fallback (any request)', fallback],
    ];
    const worst = Math.max(...stalls.map(([, s]) => s.stallMs));
    return [
      {
        title: 'Rank recompute',
        description:
          '`recomputeRanks(db, now)` over db:fake listings, every one checked, with 8 history rows each (the last 7 days and one 29 days ago), 20 views and join clicks on one listing in ten, reports and flags on a few: the inputs read by steps of 2,000 listing ids (one aggregate per table each, a turn of the event loop between reads), scored and placed in steps, then the changed rows written 1,000 per UPDATE. Then a second recompute with nothing changed, and `evaluateAnomalies` over every listing’s 30-day history.',
        rows: [
          [
            'listings',
            'history rows',
            'interactions',
            'first recompute s',
            'rows written',
            'unchanged recompute s',
            'anomaly pass s',
            'flags opened',
          ],
          [
            n(first.out.listings),
            n(snapshots),
            n(interactions),
            seconds(first.out.ms),
            n(first.out.updated),
            seconds(second.out.ms),
            seconds(anomalies.ms),
            n(anomalies.out.opened),
          ],
        ],
        notes: [
          `The refresh job runs both after every pass (the recompute at most every 10 minutes); an unchanged recompute writes ${second.out.updated} rows.`,
        ],
      },
      {
        title: 'Passes over every listing: the longest event-loop stall',
        description: `The same database (${n(size)} listings, every one checked), in the process that runs the passes as \`npm start\` does (the server's own event loop): each scheduled pass, and the slug fallback an unknown /server/ URL asks, with its wall time and the longest any event-loop turn waited while it ran (perf_hooks' monitorEventLoopDelay, 10 ms resolution), which every request the server held then waited on top of its own time. The local database driver reads synchronously: a pass read or looped over every listing in one piece before (its stall was its whole length); now in steps with a turn between them (src/lib/steps.ts), or from an index (the due and checked listings, the placement clock, the slug fallback's candidates). Target: at most ${STALL_TARGET_MS} ms.`,
        rows: [
          ['pass', 'wall ms', 'longest stall ms'],
          ...stalls.map(([label, s]) => [label, s.ms.toFixed(0), s.stallMs.toFixed(0)]),
        ],
        notes: [
          `Longest stall of any pass: ${worst.toFixed(0)} ms (target: at most ${STALL_TARGET_MS} ms): ${worst <= STALL_TARGET_MS ? 'met' : 'missed'}.`,
        ],
      },
    ];
  } finally {
    client.close();
  }
};
