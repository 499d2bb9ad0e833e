import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from '../db/client';
import { insertFakeServers } from '../db/fake';
import { migrateDb } from '../db/migrate';
import { insertFakeHistory } from '../db/queries/fake-history';
import { evaluateAnomalies, recomputeRanks } from '../functions/_app/jobs/rank';
import { seconds } from './lib/measure';
import type { BenchModule } from './types';

/**
 * Rank recompute at 100,000 listings (10,000 with --quick): db:fake's servers, every one checked,
 * with eight history rows (the last 7 days and one 29 days ago), views and join clicks on one in
 * ten, open reports and flags on a few. Measures the first recompute (every row written), a second
 * one with nothing changed, and the anomaly pass over every listing's history.
 */
export const bench: BenchModule = async (ctx) => {
  mkdirSync(ctx.tmp, { recursive: true });
  const size = ctx.quick ? 10_000 : 100_000;
  const now = new Date();
  const { db, client } = await openDb({ url: `file:${join(ctx.tmp, 'rank.db')}` });
  try {
    await migrateDb(db);
    ctx.log(`seeding ${size.toLocaleString('en-US')} listings with history…`);
    await insertFakeServers(client, size);
    const { snapshots, interactions } = await insertFakeHistory(db, now);

    const first = await recomputeRanks(db, now);
    ctx.log(`first recompute: ${first.updated} rows written in ${seconds(first.ms)} s`);
    const second = await recomputeRanks(db, now);
    const anomaliesStart = performance.now();
    const anomalies = await evaluateAnomalies(db, now);
    const anomaliesMs = performance.now() - anomaliesStart;
    const n = (v: number) => v.toLocaleString('en-US');
    return [
      {
        title: 'Rank recompute',
        description:
          '`recomputeRanks(db, now)` over db:fake listings, every one checked, with 8 history rows each (the last 7 days and one 29 days ago), 20 views and join clicks on one listing in ten, reports and flags on a few: set-based reads (one aggregate per table), then the changed rows written 1,000 per UPDATE. Then a second recompute with nothing changed, and `evaluateAnomalies` over every listing’s 30-day history.',
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
            n(first.listings),
            n(snapshots),
            n(interactions),
            seconds(first.ms),
            n(first.updated),
            seconds(second.ms),
            seconds(anomaliesMs),
            n(anomalies.opened),
          ],
        ],
        notes: [`The refresh job runs both after every pass; an unchanged recompute writes ${second.updated} rows.`],
      },
    ];
  } finally {
    client.close();
  }
};
