import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from '../db/client';
import { insertFakeServers } from '../db/fake';
import { migrateDb } from '../db/migrate';
import { evaluateAnomalies, recomputeRanks } from '../db/queries/rank';
import { seconds } from './lib/measure';
import type { BenchModule } from './types';

const SNAPSHOT_DAYS = [0, 1, 2, 3, 4, 5, 6, 29];

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
    const iso = (expr: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${expr})`;
    const at = `'${now.toISOString()}'`;
    await client.batch(
      [
        `UPDATE discord_servers SET invite_status = 'ok', last_checked_at = ${iso(`${at}, '-' || (id % 20) || ' hours'`)},
           last_ok_at = ${iso(`${at}, '-' || (id % 20) || ' hours'`)}, created_at = ${iso(`${at}, '-' || (id % 400) || ' days'`)}`,
        `INSERT INTO server_snapshots (server_id, checked_at, outcome, member_count, online_count)
         SELECT s.id, ${iso(`${at}, '-' || (s.id % 20) || ' hours', '-' || d.value || ' days'`)}, 'ok',
           max(1, s.members - d.value * (s.id % 37)), max(0, s.active_users - d.value * (s.id % 5))
         FROM discord_servers s CROSS JOIN json_each('${JSON.stringify(SNAPSHOT_DAYS)}') d`,
        `INSERT INTO user_interactions (interaction_type, target_type, server_id, ip_address, created_at)
         SELECT CASE WHEN v.value % 5 = 0 THEN 'click' ELSE 'view' END, 'server', s.id, 'visitor-' || v.value,
           ${iso(`${at}, '-' || (v.value % 6) || ' days'`)}
         FROM discord_servers s CROSS JOIN json_each('[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]') v
         WHERE s.id % 10 = 0`,
        `INSERT INTO server_reports (server_id, reason, session_id) SELECT id, 'spam', 'r' || id FROM discord_servers WHERE id % 500 = 0`,
        `INSERT INTO server_flags (server_id, rule, detail) SELECT id, 'low_presence', 'bench' FROM discord_servers WHERE id % 700 = 0`,
      ],
      'write',
    );
    const counts = await client.execute(
      `SELECT (SELECT count(*) FROM server_snapshots), (SELECT count(*) FROM user_interactions)`,
    );
    const snapshots = Number(counts.rows[0]![0]);
    const interactions = Number(counts.rows[0]![1]);

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
