// The rank job's reads and writes (functions/_app/jobs/rank.ts scores and judges them with
// src/lib/ranking/): queries only.
import type { Client, InValue } from '@libsql/client';
import type { CheckOutcome, InviteStatus } from '../../src/lib/enums';
import { UNLISTED_INVITE_STATUSES } from '../../src/lib/listing';
import { GROWTH_RULES, type HistoryPoint } from '../../src/lib/ranking/anomalies';
import { CHECKED_WORKING, NICHE_MIN_MEMBERS } from '../../src/lib/ranking/constants';
import { median } from '../../src/lib/ranking/signals';
import { nextTurn } from '../../src/lib/steps';
import type { Db } from '../client';
import { preparedStatementsFor } from '../prepared';
import { IDS_PER_STEP, idSteps, stepSize } from './listing-steps';

/** Listings written per UPDATE statement (5 bound values each). */
const ROWS_PER_UPDATE = 1_000;

const rawClient = (db: Db): Client => (db as Db & { $client: Client }).$client;
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

/** A listing as the recompute reads it (its stored score, parts and growth, and what they come from). */
export interface RankListing {
  id: number;
  slug: string;
  category: string;
  is_active: boolean;
  sort_order: number;
  members: number;
  active_users: number;
  status: InviteStatus;
  lastOk: string | null;
  createdAt: string;
  score: number;
  growth: number;
  explain: string | null;
  /** Its stored place in its category (category_place), null when none. */
  place: number | null;
}

/**
 * Which listings a recompute scores: all of them, one category's (its niche median is the
 * category's own), or only the listings `ids` (an approval's new listing).
 */
export interface RankScope {
  category?: string | undefined;
  ids?: readonly number[] | undefined;
}

/** The WHERE of a scope's listings in discord_servers (empty: every listing), and its arguments. */
function scopeWhere(scope: RankScope): { where: string; args: InValue[] } {
  if (scope.ids !== undefined)
    return { where: 'id IN (SELECT value FROM json_each(?))', args: [JSON.stringify(scope.ids)] };
  if (scope.category !== undefined) return { where: 'category = ?', args: [scope.category] };
  return { where: '', args: [] };
}

/** The median of each listing's online counts in the window: the middle row (or the two middle rows) by value. */
const medianOnlineSql = (only: string) => `SELECT server_id AS id, avg(online_count) AS v FROM (
        SELECT server_id, online_count,
          row_number() OVER (PARTITION BY server_id ORDER BY online_count) AS rn,
          count(*) OVER (PARTITION BY server_id) AS n
        FROM server_snapshots
        WHERE checked_at >= ? AND outcome = 'ok' AND online_count IS NOT NULL ${only}
      ) WHERE rn IN ((n + 1) / 2, (n + 2) / 2) GROUP BY server_id`;

/** Where each signal's window starts (ISO times), from the rank formula's windows. */
export interface RankWindows {
  onlineSince: string;
  growthSince: string;
  interestSince: string;
}

/** Everything the rank formula reads, per listing id (absent: no such row). */
export interface RankInputs {
  listings: RankListing[];
  /** The median of the listing's online counts in the online window. */
  medianOnline: Map<number, number>;
  /** The member count of the listing's first check in the growth window. */
  firstMembers: Map<number, number>;
  /** Distinct join clicks and views (one per visitor and day) in the interest window. */
  interest: Map<number, { joins: number; views: number }>;
  /** Distinct reporters of open reports. */
  reports: Map<number, number>;
  /** Open flags: 1 when one is about growth, else 0. */
  flags: Map<number, number>;
}

/**
 * The rank formula's inputs (jobs/rank.ts scores them), set-based: the listings, then one
 * aggregate query per table (snapshots: the median online in the window and the first member
 * count; interactions: distinct join clicks and views per visitor and day; open reports; open flags),
 * by steps of IDS_PER_STEP listing ids with a turn of the event loop between them.
 */
export async function readRankInputs(db: Db, windows: RankWindows, scope: RankScope = {}): Promise<RankInputs> {
  // An approval's listing: one read of each.
  if (scope.ids !== undefined) return readRankInputsWhere(db, windows, scopeWhere(scope));
  // Every listing, or a category's: by steps of ids (idSteps), each step's reads in one go.
  const category = scopeWhere(scope);
  const inputs: RankInputs = {
    listings: [],
    medianOnline: new Map(),
    firstMembers: new Map(),
    interest: new Map(),
    reports: new Map(),
    flags: new Map(),
  };
  for await (const step of idSteps(db)) {
    const part = await readRankInputsWhere(
      db,
      windows,
      {
        where: category.where ? `${step.where} AND ${category.where}` : step.where,
        args: [...step.args, ...category.args],
      },
      // A turn between reads where they hold the event loop (a local file), none elsewhere.
      stepSize(db) === IDS_PER_STEP ? nextTurn : undefined,
    );
    for (const l of part.listings) inputs.listings.push(l);
    for (const key of ['medianOnline', 'firstMembers', 'interest', 'reports', 'flags'] as const) {
      const into = inputs[key] as Map<number, unknown>;
      for (const [id, v] of part[key]) into.set(id, v);
    }
  }
  return inputs;
}

/** readRankInputs of the listings a WHERE on discord_servers picks (empty: every listing). */
async function readRankInputsWhere(
  db: Db,
  windows: RankWindows,
  { where, args: onlyArgs }: { where: string; args: InValue[] },
  between?: () => Promise<void>,
): Promise<RankInputs> {
  const growthRules = GROWTH_RULES.map((r) => `'${r}'`).join(', ');
  // The listings' rows in the other tables.
  const only = where ? `AND server_id IN (SELECT id FROM discord_servers WHERE ${where})` : '';
  // Together, or one after the other with `between` them (a turn of the event loop, in steps).
  const reads: (() => Promise<Record<string, unknown>[]>)[] = [
    () =>
      readAll(
        db,
        `SELECT id, slug, category, is_active, sort_order, members, active_users, invite_status, last_ok_at, created_at,
         rank_score, growth_30d, rank_explain, category_place
       FROM discord_servers${where ? ` WHERE ${where}` : ''}`,
        onlyArgs,
      ),
    () => readAll(db, medianOnlineSql(only), [windows.onlineSince, ...onlyArgs]),
    // SQLite takes the bare member_count from the row min() picked: the first check of the window.
    () =>
      readAll(
        db,
        `SELECT server_id AS id, member_count AS v, min(checked_at) AS first_at FROM server_snapshots
       WHERE checked_at >= ? AND member_count IS NOT NULL ${only} GROUP BY server_id`,
        [windows.growthSince, ...onlyArgs],
      ),
    // One join click and one view per visitor (salted address hash) and day.
    () =>
      readAll(
        db,
        `SELECT server_id AS id,
         count(DISTINCT CASE WHEN interaction_type = 'click' THEN coalesce(ip_address, session_id, id) || substr(created_at, 1, 10) END) AS joins,
         count(DISTINCT CASE WHEN interaction_type = 'view' THEN coalesce(ip_address, session_id, id) || substr(created_at, 1, 10) END) AS views
       FROM user_interactions
       WHERE created_at >= ? AND server_id IS NOT NULL AND target_type = 'server' AND interaction_type IN ('click', 'view') ${only}
       GROUP BY server_id`,
        [windows.interestSince, ...onlyArgs],
      ),
    // Distinct reporters (the tab's session) of open reports.
    () =>
      readAll(
        db,
        `SELECT server_id AS id, count(DISTINCT coalesce(session_id, id)) AS v FROM server_reports WHERE status = 'open' ${only} GROUP BY server_id`,
        onlyArgs,
      ),
    // Open flags (unreviewed or confirmed; dismissed ones are closed); v = 1 when one is about growth.
    () =>
      readAll(
        db,
        `SELECT server_id AS id, max(rule IN (${growthRules})) AS v FROM server_flags WHERE closed_at IS NULL ${only} GROUP BY server_id`,
        onlyArgs,
      ),
  ];
  const results: Record<string, unknown>[][] = [];
  if (!between) results.push(...(await Promise.all(reads.map((read) => read()))));
  else {
    for (const [i, read] of reads.entries()) {
      if (i > 0) await between();
      results.push(await read());
    }
  }
  const [listingRows = [], medianRows = [], firstRows = [], interestRows = [], reportRows = [], flagRows = []] =
    results;
  return {
    listings: listingRows.map((r) => ({
      id: num(r.id),
      slug: String(r.slug),
      category: String(r.category),
      is_active: num(r.is_active) === 1,
      sort_order: num(r.sort_order),
      members: num(r.members),
      active_users: num(r.active_users),
      status: String(r.invite_status) as InviteStatus,
      lastOk: text(r.last_ok_at),
      createdAt: String(r.created_at),
      score: num(r.rank_score),
      growth: num(r.growth_30d),
      explain: text(r.rank_explain),
      place: r.category_place == null ? null : num(r.category_place),
    })),
    medianOnline: byServer(medianRows),
    firstMembers: byServer(firstRows),
    interest: new Map(interestRows.map((r) => [num(r.id), { joins: num(r.joins), views: num(r.views) }])),
    reports: byServer(reportRows),
    flags: byServer(flagRows),
  };
}

/** A listing's new score, its parts (JSON), its growth and its place in its category (null: not listed). */
export interface RankUpdate {
  id: number;
  score: number;
  explain: string;
  growth: number;
  place: number | null;
}

/**
 * Writes new scores, a thousand listings per UPDATE, each chunk its own short write so pages keep
 * being served between them.
 */
export async function writeRankScores(db: Db, updates: readonly RankUpdate[]): Promise<void> {
  const prepared = preparedStatementsFor(db);
  for (let start = 0; start < updates.length; start += ROWS_PER_UPDATE) {
    const chunk = updates.slice(start, start + ROWS_PER_UPDATE);
    const update = `UPDATE discord_servers SET rank_score = v.column2, rank_explain = v.column3, growth_30d = v.column4,
        category_place = v.column5
      FROM (VALUES ${chunk.map(() => '(?, ?, ?, ?, ?)').join(', ')}) AS v WHERE discord_servers.id = v.column1`;
    const args = chunk.flatMap((u) => [u.id, u.score, u.explain, u.growth, u.place]);
    if (prepared) await prepared.run(update, args);
    else await rawClient(db).execute({ sql: update, args });
  }
}

/** A listing that counts toward its category's niche median (nicheShares), with what its share is read from. */
export interface NicheListing {
  id: number;
  category: string;
  members: number;
  active_users: number;
  status: InviteStatus;
  lastOk: string | null;
  /** The median of its online counts in the online window (absent: no check in it). */
  medianOnline: number | undefined;
}

/**
 * The listings of `category` that can count toward its niche median (a working invite and
 * NICHE_MIN_MEMBERS or more, listed or not), with their median online count since `onlineSince`:
 * the index of invite states per category (is_active, category, invite_status), then their
 * snapshots. What an approval's scoring reads instead of the whole category.
 */
export async function readNicheListings(db: Db, category: string, onlineSince: string): Promise<NicheListing[]> {
  // `+members`: not the members index, which would walk the category's every listing above the floor.
  const where = `is_active IN (0, 1) AND category = ? AND invite_status IN (${CHECKED_WORKING.map(() => '?').join(', ')}) AND +members >= ?`;
  const args: InValue[] = [category, ...CHECKED_WORKING, NICHE_MIN_MEMBERS];
  const [rows, medians] = await Promise.all([
    readAll(
      db,
      `SELECT id, category, members, active_users, invite_status, last_ok_at FROM discord_servers WHERE ${where}`,
      args,
    ),
    readAll(db, medianOnlineSql(`AND server_id IN (SELECT id FROM discord_servers WHERE ${where})`), [
      onlineSince,
      ...args,
    ]),
  ]);
  const median = byServer(medians);
  return rows.map((r) => ({
    id: num(r.id),
    category: String(r.category),
    members: num(r.members),
    active_users: num(r.active_users),
    status: String(r.invite_status) as InviteStatus,
    lastOk: text(r.last_ok_at),
    medianOnline: median.get(num(r.id)),
  }));
}

/** A listed, scored listing as its category's stored places list it (placedListings). */
export interface PlacedListing {
  id: number;
  slug: string;
  is_active: boolean;
  category: string;
  status: InviteStatus;
  rank_score: number;
  members: number;
  /** Its stored place (category_place). */
  place: number;
}

/**
 * The listings of `category` that have a stored place (category_place: scored and listed at the
 * last recompute), listed now, in the Most Active order: one range read of the index of stored
 * places (discord_servers_category_place_idx), which holds only those listings.
 */
export async function placedListings(db: Db, category: string): Promise<PlacedListing[]> {
  const rows = await readAll(
    db,
    `SELECT id, slug, is_active, category, invite_status, rank_score, members, category_place FROM discord_servers
     INDEXED BY discord_servers_category_place_idx
     WHERE category = ? AND category_place IS NOT NULL AND is_active = 1
       AND invite_status NOT IN (${UNLISTED_INVITE_STATUSES.map(() => '?').join(', ')})
     ORDER BY rank_score DESC, members DESC, id`,
    [category, ...UNLISTED_INVITE_STATUSES],
  );
  return rows.map((r) => ({
    id: num(r.id),
    slug: String(r.slug),
    is_active: num(r.is_active) === 1,
    category: String(r.category),
    status: String(r.invite_status) as InviteStatus,
    rank_score: num(r.rank_score),
    members: num(r.members),
    place: num(r.category_place),
  }));
}

/**
 * An approval's rank in one batch: the new listing's score, parts, growth and place, and the new
 * places of the listings it moved (only category_place changes for those).
 */
export async function writeApprovalRank(
  db: Db,
  listing: RankUpdate,
  places: readonly { id: number; place: number }[],
): Promise<void> {
  const statements: { sql: string; args: InValue[] }[] = [
    {
      sql: 'UPDATE discord_servers SET rank_score = ?, rank_explain = ?, growth_30d = ?, category_place = ? WHERE id = ?',
      args: [listing.score, listing.explain, listing.growth, listing.place, listing.id],
    },
  ];
  for (let start = 0; start < places.length; start += ROWS_PER_UPDATE) {
    const chunk = places.slice(start, start + ROWS_PER_UPDATE);
    statements.push({
      sql: `UPDATE discord_servers SET category_place = v.column2
        FROM (VALUES ${chunk.map(() => '(?, ?)').join(', ')}) AS v WHERE discord_servers.id = v.column1`,
      args: chunk.flatMap((p) => [p.id, p.place]),
    });
  }
  await rawClient(db).batch(statements, 'write');
}

/** The listings checked since `since` (the previous anomaly pass) and within the history window, with their category. */
export async function listCheckedSince(
  db: Db,
  since: string,
  historySince: string,
): Promise<{ id: number; category: string }[]> {
  // By pages of discord_servers_checked_idx (last_checked_at, then id), a turn of the event loop
  // between them: a pass usually finds a few hundred, the first one every listing.
  const checked: { id: number; category: string }[] = [];
  const page = stepSize(db);
  let after: [string, number] = ['', 0];
  for (;;) {
    const rows = await readAll(
      db,
      `SELECT id, category, last_checked_at FROM discord_servers INDEXED BY discord_servers_checked_idx
       WHERE last_checked_at IS NOT NULL AND last_checked_at > ? AND last_checked_at >= ?
         AND (last_checked_at, id) > (?, ?)
       ORDER BY last_checked_at, id LIMIT ${page}`,
      [since, historySince, ...after],
    );
    for (const r of rows) checked.push({ id: num(r.id), category: String(r.category) });
    if (rows.length < page) return checked;
    const last = rows[rows.length - 1]!;
    after = [String(last.last_checked_at), num(last.id)];
    await nextTurn();
  }
}

/**
 * Per category, the median online share of the listings whose invite works (with NICHE_MIN_MEMBERS
 * or more): their shares read by steps of ids (a turn between steps), the medians taken here.
 */
export async function nicheShareMedians(db: Db): Promise<Map<string, number>> {
  const shares = new Map<string, number[]>();
  for await (const step of idSteps(db)) {
    const rows = await readAll(
      db,
      `SELECT category, min(1.0, active_users * 1.0 / members) AS share FROM discord_servers
       WHERE ${step.where} AND members >= ? AND invite_status IN (${CHECKED_WORKING.map(() => '?').join(', ')})`,
      [...step.args, NICHE_MIN_MEMBERS, ...CHECKED_WORKING],
    );
    for (const r of rows) {
      const list = shares.get(String(r.category));
      if (list) list.push(num(r.share));
      else shares.set(String(r.category), [num(r.share)]);
    }
  }
  return new Map([...shares].map(([category, list]) => [category, median(list)]));
}

/** The check history since `since` of each of `ids` (at most a few hundred per call), by the snapshots' primary key, oldest first. */
export async function readHistories(
  db: Db,
  ids: readonly number[],
  since: string,
): Promise<Map<number, HistoryPoint[]>> {
  const rows = await readAll(
    db,
    `SELECT server_id, checked_at, outcome, member_count, online_count FROM server_snapshots
     WHERE server_id IN (${ids.map(() => '?').join(', ')}) AND checked_at >= ? ORDER BY server_id, checked_at`,
    [...ids, since],
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
  return histories;
}
