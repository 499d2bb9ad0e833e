import { and, asc, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/sqlite-core';
import type { Db } from '../client';
import { readBuilt } from '../prepared';
import { serverSnapshots } from '../schema';

/** One point of a listing's member history: a definitive check that answered with counts. */
export interface HistoryPoint {
  checked_at: string;
  members: number;
  online: number | null;
}

/** SQLite's limit on bound parameters is far above this; chunks keep each statement small. */
const IDS_PER_QUERY = 500;

/**
 * Member history of the last `days` days, oldest first, per server id: each day's last check that
 * answered with a member count (unknown invites carry none), so a listing has at most `days` + 1
 * points however often it is checked. `'all'` reads every listing in one query, as
 * the build does (one read for 100,000 server pages); a list of ids reads only those.
 */
export async function memberHistory(
  db: Db,
  serverIds: readonly number[] | 'all',
  days: number,
  now: Date = new Date(),
): Promise<Map<number, HistoryPoint[]>> {
  const since = new Date(now.getTime() - days * 86_400_000).toISOString();
  const base = and(gte(serverSnapshots.checked_at, since), isNotNull(serverSnapshots.member_count));
  const read = (where: ReturnType<typeof and>) =>
    db
      .select(HISTORY_POINT)
      .from(serverSnapshots)
      .where(where)
      .groupBy(serverSnapshots.server_id, sql`substr(${serverSnapshots.checked_at}, 1, 10)`)
      .orderBy(asc(serverSnapshots.server_id), sql`2`);
  const rows =
    serverIds === 'all'
      ? await read(base)
      : (
          await Promise.all(
            chunks(serverIds, IDS_PER_QUERY).map((ids) => read(and(base, inArray(serverSnapshots.server_id, ids)))),
          )
        ).flat();
  const byServer = new Map<number, HistoryPoint[]>();
  for (const r of rows) {
    const point = { checked_at: r.checked_at, members: r.members, online: r.online };
    const list = byServer.get(r.server_id);
    if (list) list.push(point);
    else byServer.set(r.server_id, [point]);
  }
  return byServer;
}

/** One day's point as the history reads select it. */
const HISTORY_POINT = {
  server_id: serverSnapshots.server_id,
  // SQLite takes the bare columns from the row max() picked: each day's last check.
  checked_at: sql<string>`max(${serverSnapshots.checked_at})`.as('checked_at'),
  members: sql<number>`${serverSnapshots.member_count}`.as('members'),
  online: serverSnapshots.online_count,
};

/** memberHistory of one listing, built once: the read of a server page rendered on request (#18). */
const ONE_HISTORY = new QueryBuilder()
  .select(HISTORY_POINT)
  .from(serverSnapshots)
  .where(
    and(
      gte(serverSnapshots.checked_at, sql.placeholder('since')),
      isNotNull(serverSnapshots.member_count),
      eq(serverSnapshots.server_id, sql.placeholder('id')),
    ),
  )
  .groupBy(serverSnapshots.server_id, sql`substr(${serverSnapshots.checked_at}, 1, 10)`)
  .orderBy(sql`2`)
  .toSQL();

/** The member history of one listing over the last `days` days, oldest first: memberHistory's points for it. */
export async function memberHistoryOf(
  db: Db,
  serverId: number,
  days: number,
  now: Date = new Date(),
): Promise<HistoryPoint[]> {
  const since = new Date(now.getTime() - days * 86_400_000).toISOString();
  const rows = await readBuilt(db, ONE_HISTORY, { since, id: serverId });
  return rows.map((r) => ({
    checked_at: r.checked_at as string,
    members: r.members as number,
    // The native rows are keyed by the SQL's names: the aliases above, the column's own name.
    online: r.online_count as number | null,
  }));
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
