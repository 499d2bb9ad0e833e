import type { Client, InValue } from '@libsql/client';
import type { CheckOutcome, InviteStatus } from '../../src/lib/enums';
import { ANOMALY, detectAnomalies, GROWTH_RULES, type HistoryPoint } from '../../src/lib/ranking/anomalies';
import { ANOMALY_JOB, CHECKED_WORKING, NICHE_MIN_MEMBERS } from '../../src/lib/ranking/constants';
import { growthFraction, RANK, rankScore } from '../../src/lib/ranking/formula';
import { nicheShares, shownChanges } from '../../src/lib/ranking/signals';
import type { Db } from '../client';
import { preparedStatementsFor } from '../prepared';
import { closeQuietFlags, openFlags, recordJobRun } from './flags';
import { getJobState } from './freshness';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Listings written per UPDATE statement (4 bound values each). */
const ROWS_PER_UPDATE = 1_000;
/** Listing ids per history read of the anomaly pass. */
const IDS_PER_READ = 500;

const rawClient = (db: Db): Client => (db as Db & { $client: Client }).$client;
const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY).toISOString();
const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : Number(v ?? 0));
const text = (v: unknown): string | null => (v == null ? null : String(v));

/** A map of server id to the row's `v`. */
function byServer(rows: Record<string, unknown>[]): Map<number, number> {
  return new Map(rows.map((r) => [num(r.id), num(r.v)]));
}

/**
 * Rows of a read as objects by column name: on the native prepared connection when the runtime
 * has one (a file database on Node: several times faster at 100,000 rows), else through the client.
 */
async function readAll(db: Db, statement: string, args: InValue[] = []): Promise<Record<string, unknown>[]> {
  const prepared = preparedStatementsFor(db);
  if (prepared) return prepared.all(statement, args);
  return (await rawClient(db).execute({ sql: statement, args })).rows as unknown as Record<string, unknown>[];
}

/** What one recompute did. */
export interface RankRun {
  listings: number;
  /** Listings whose score, parts or growth changed (the only ones written). */
  updated: number;
  /**
   * The slugs of the listed servers whose page shows something else now: their score, its parts
   * or growth changed, or their place in their category moved (another listing passed them).
   */
  changedSlugs: string[];
  ms: number;
}

/** Which listings a recompute scores: all of them, or one category's (its niche median is the category's own). */
export interface RankScope {
  category?: string | undefined;
}

/**
 * Recomputes rank_score, rank_explain and growth_30d of every listing from checked signals
 * (src/lib/ranking/formula.ts). Set-based: one aggregate query per table (snapshots: the 7-day
 * median online and the first member count of 30 days; interactions: distinct join clicks and
 * views per visitor and day over 7 days; open reports; open flags), then writes only the rows
 * that changed, a thousand per UPDATE, each its own short write so pages keep being served.
 */
export async function recomputeRanks(db: Db, now: Date, scope: RankScope = {}): Promise<RankRun> {
  const started = performance.now();
  const client = rawClient(db);
  const prepared = preparedStatementsFor(db);
  const onlineSince = daysBefore(now, RANK.onlineWindowDays);
  const growthSince = daysBefore(now, RANK.growthWindowDays);
  const interestSince = daysBefore(now, RANK.interestWindowDays);
  const growthRules = GROWTH_RULES.map((r) => `'${r}'`).join(', ');
  // One category's listings and what they have in the other tables (an approval's recompute).
  const only =
    scope.category === undefined ? '' : 'AND server_id IN (SELECT id FROM discord_servers WHERE category = ?)';
  const onlyArgs: InValue[] = scope.category === undefined ? [] : [scope.category];
  const [listingRows, medianRows, firstRows, interestRows, reportRows, flagRows] = await Promise.all([
    readAll(
      db,
      `SELECT id, slug, category, is_active, sort_order, members, active_users, invite_status, last_ok_at, created_at,
         rank_score, growth_30d, rank_explain
       FROM discord_servers${scope.category === undefined ? '' : ' WHERE category = ?'}`,
      onlyArgs,
    ),
    // The median of each listing's online counts: the middle row (or the two middle rows) by value.
    readAll(
      db,
      `SELECT server_id AS id, avg(online_count) AS v FROM (
        SELECT server_id, online_count,
          row_number() OVER (PARTITION BY server_id ORDER BY online_count) AS rn,
          count(*) OVER (PARTITION BY server_id) AS n
        FROM server_snapshots
        WHERE checked_at >= ? AND outcome = 'ok' AND online_count IS NOT NULL ${only}
      ) WHERE rn IN ((n + 1) / 2, (n + 2) / 2) GROUP BY server_id`,
      [onlineSince, ...onlyArgs],
    ),
    // SQLite takes the bare member_count from the row min() picked: the first check of the window.
    readAll(
      db,
      `SELECT server_id AS id, member_count AS v, min(checked_at) AS first_at FROM server_snapshots
       WHERE checked_at >= ? AND member_count IS NOT NULL ${only} GROUP BY server_id`,
      [growthSince, ...onlyArgs],
    ),
    // One join click and one view per visitor (salted address hash) and day.
    readAll(
      db,
      `SELECT server_id AS id,
         count(DISTINCT CASE WHEN interaction_type = 'click' THEN coalesce(ip_address, session_id, id) || substr(created_at, 1, 10) END) AS joins,
         count(DISTINCT CASE WHEN interaction_type = 'view' THEN coalesce(ip_address, session_id, id) || substr(created_at, 1, 10) END) AS views
       FROM user_interactions
       WHERE created_at >= ? AND server_id IS NOT NULL AND target_type = 'server' AND interaction_type IN ('click', 'view') ${only}
       GROUP BY server_id`,
      [interestSince, ...onlyArgs],
    ),
    // Distinct reporters (the tab's session) of open reports.
    readAll(
      db,
      `SELECT server_id AS id, count(DISTINCT coalesce(session_id, id)) AS v FROM server_reports WHERE status = 'open' ${only} GROUP BY server_id`,
      onlyArgs,
    ),
    // Open flags (unreviewed or confirmed; dismissed ones are closed); v = 1 when one is about growth.
    readAll(
      db,
      `SELECT server_id AS id, max(rule IN (${growthRules})) AS v FROM server_flags WHERE closed_at IS NULL ${only} GROUP BY server_id`,
      onlyArgs,
    ),
  ]);
  const medianOnline = byServer(medianRows);
  const firstMembers = byServer(firstRows);
  const interest = new Map(interestRows.map((r) => [num(r.id), { joins: num(r.joins), views: num(r.views) }]));
  const reports = byServer(reportRows);
  const flags = byServer(flagRows);

  const listings = listingRows.map((r) => {
    const id = num(r.id);
    const lastOk = text(r.last_ok_at);
    return {
      id,
      slug: String(r.slug),
      category: String(r.category),
      is_active: num(r.is_active) === 1,
      sort_order: num(r.sort_order),
      members: num(r.members),
      // The 7-day median of checks; without history, the last check's count (if a check ever answered).
      online: medianOnline.get(id) ?? (lastOk ? num(r.active_users) : 0),
      status: String(r.invite_status) as InviteStatus,
      lastOk,
      createdAt: String(r.created_at),
      score: num(r.rank_score),
      growth: num(r.growth_30d),
      explain: text(r.rank_explain),
    };
  });
  const shares = nicheShares(listings);

  const changed: (number | string)[][] = [];
  const after = new Map<number, { score: number; growth: number }>();
  const nowMs = now.getTime();
  for (const l of listings) {
    const flag = flags.get(l.id);
    const before = firstMembers.get(l.id) ?? null;
    const { score, parts } = rankScore({
      status: l.status,
      members: l.members,
      online: l.online,
      membersBefore: before,
      nicheShare: shares.get(l.category) ?? RANK.defaultNicheShare,
      joins: interest.get(l.id)?.joins ?? 0,
      views: interest.get(l.id)?.views ?? 0,
      hoursSinceOk: l.lastOk ? Math.max(0, (nowMs - Date.parse(l.lastOk)) / HOUR) : null,
      openReports: reports.get(l.id) ?? 0,
      flagOpen: flag !== undefined,
      growthFlagOpen: flag === 1,
      ageDays: Math.max(0, (nowMs - Date.parse(l.createdAt)) / DAY),
    });
    const growth = growthFraction(before, l.members);
    const explain = JSON.stringify(parts);
    after.set(l.id, { score, growth });
    if (score !== l.score || growth !== l.growth || explain !== l.explain) changed.push([l.id, score, explain, growth]);
  }

  for (let start = 0; start < changed.length; start += ROWS_PER_UPDATE) {
    const chunk = changed.slice(start, start + ROWS_PER_UPDATE);
    const update = `UPDATE discord_servers SET rank_score = v.column2, rank_explain = v.column3, growth_30d = v.column4
      FROM (VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}) AS v WHERE discord_servers.id = v.column1`;
    // Each chunk its own short write: requests keep being answered between them.
    if (prepared) await prepared.run(update, chunk.flat());
    else await client.execute({ sql: update, args: chunk.flat() });
  }
  return {
    listings: listings.length,
    updated: changed.length,
    changedSlugs: shownChanges(listings, after, new Set(changed.map((c) => Number(c[0])))),
    ms: Math.round(performance.now() - started),
  };
}

/** What one anomaly pass did. */
export interface AnomalyRun {
  evaluated: number;
  opened: number;
  closed: number;
}

/**
 * Runs the anomaly rules (src/lib/ranking/anomalies.ts) over the 30-day history of every
 * listing checked since the previous pass (all listings with history on the first), opens a flag
 * per new finding and closes quiet ones; the pass's time is the next pass's watermark (job_state
 * row 'anomalies'). Histories are read by chunks of ids on the snapshots' primary key.
 */
export async function evaluateAnomalies(db: Db, now: Date): Promise<AnomalyRun> {
  const previous = await getJobState(db, ANOMALY_JOB);
  const since = previous?.last_run_at ?? '';
  const historySince = daysBefore(now, ANOMALY.unknownWindowDays);
  const checkedRows = await readAll(
    db,
    'SELECT id, category FROM discord_servers WHERE last_checked_at IS NOT NULL AND last_checked_at > ? AND last_checked_at >= ?',
    [since, historySince],
  );
  // The niche medians in SQL (one row per category), and only when there is something to judge.
  const shareRows =
    checkedRows.length === 0
      ? []
      : await readAll(
          db,
          `SELECT category, avg(share) AS share FROM (
             SELECT category, share,
               row_number() OVER (PARTITION BY category ORDER BY share) AS rn,
               count(*) OVER (PARTITION BY category) AS n
             FROM (SELECT category, min(1.0, active_users * 1.0 / members) AS share FROM discord_servers
                   WHERE members >= ? AND invite_status IN (${CHECKED_WORKING.map(() => '?').join(', ')}))
           ) WHERE rn IN ((n + 1) / 2, (n + 2) / 2) GROUP BY category`,
          [NICHE_MIN_MEMBERS, ...CHECKED_WORKING],
        );
  const shares = new Map(shareRows.map((r) => [String(r.category), num(r.share)]));
  const checked = checkedRows.map((r) => ({ id: num(r.id), category: String(r.category) }));
  const found: Parameters<typeof openFlags>[1][number][] = [];
  const firing = new Map<number, Set<(typeof found)[number]['anomaly']['rule']>>();

  for (let start = 0; start < checked.length; start += IDS_PER_READ) {
    const chunk = checked.slice(start, start + IDS_PER_READ);
    const rows = await readAll(
      db,
      `SELECT server_id, checked_at, outcome, member_count, online_count FROM server_snapshots
       WHERE server_id IN (${chunk.map(() => '?').join(', ')}) AND checked_at >= ? ORDER BY server_id, checked_at`,
      [...chunk.map((l) => l.id), historySince],
    );
    const histories = new Map<number, HistoryPoint[]>();
    for (const r of rows) {
      const id = num(r.server_id);
      const list = histories.get(id) ?? [];
      list.push({
        checked_at: String(r.checked_at),
        outcome: String(r.outcome) as CheckOutcome,
        member_count: r.member_count == null ? null : num(r.member_count),
        online_count: r.online_count == null ? null : num(r.online_count),
      });
      histories.set(id, list);
    }
    for (const l of chunk) {
      const anomalies = detectAnomalies(histories.get(l.id) ?? [], {
        nicheShare: shares.get(l.category) ?? RANK.defaultNicheShare,
        niche: l.category,
        now,
      });
      firing.set(l.id, new Set(anomalies.map((a) => a.rule)));
      for (const anomaly of anomalies) found.push({ serverId: l.id, anomaly });
    }
  }
  const opened = await openFlags(db, found, now);
  const closed = await closeQuietFlags(
    db,
    firing,
    checked.map((l) => l.id),
    now,
  );
  const run = { evaluated: checked.length, opened, closed };
  await recordJobRun(db, ANOMALY_JOB, now, { ...run });
  return run;
}
