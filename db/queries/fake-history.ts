import type { Client } from '@libsql/client';
import type { Db } from '../client';

const rawClient = (db: Db): Client => (db as Db & { $client: Client }).$client;

/** Days before `now` of the fake history rows: the last 7 days and one 29 days ago. */
export const FAKE_HISTORY_DAYS = [0, 1, 2, 3, 4, 5, 6, 29] as const;

/**
 * Makes every listing look checked (bench/rank.ts): invite ok, last checked up to 19 hours before
 * `now`, listed up to 399 days ago; one history row per FAKE_HISTORY_DAYS; 20 views and join clicks
 * on one listing in ten; an open report on one in 500 and an open flag on one in 700. Set-based
 * statements in one write batch. Returns the history and interaction row counts.
 */
export async function insertFakeHistory(db: Db, now: Date): Promise<{ snapshots: number; interactions: number }> {
  const client = rawClient(db);
  const iso = (expr: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${expr})`;
  const at = `'${now.toISOString()}'`;
  await client.batch(
    [
      `UPDATE discord_servers SET invite_status = 'ok', last_checked_at = ${iso(`${at}, '-' || (id % 20) || ' hours'`)},
         last_ok_at = ${iso(`${at}, '-' || (id % 20) || ' hours'`)}, created_at = ${iso(`${at}, '-' || (id % 400) || ' days'`)}`,
      `INSERT INTO server_snapshots (server_id, checked_at, outcome, member_count, online_count)
       SELECT s.id, ${iso(`${at}, '-' || (s.id % 20) || ' hours', '-' || d.value || ' days'`)}, 'ok',
         max(1, s.members - d.value * (s.id % 37)), max(0, s.active_users - d.value * (s.id % 5))
       FROM discord_servers s CROSS JOIN json_each('${JSON.stringify(FAKE_HISTORY_DAYS)}') d`,
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
    'SELECT (SELECT count(*) FROM server_snapshots) AS snapshots, (SELECT count(*) FROM user_interactions) AS interactions',
  );
  return { snapshots: Number(counts.rows[0]!.snapshots), interactions: Number(counts.rows[0]!.interactions) };
}
