import type { Client, InValue } from '@libsql/client';
import { and, eq, gte, sql } from 'drizzle-orm';
import { INTERACTION_TYPES, type InteractionType } from '../../src/lib/enums';
import type { BrowserInteractionType } from '../../src/lib/schemas/interaction';
import { utcDaysSince } from '../../src/lib/utc-days';
import type { Db } from '../client';
import { canGroupCommit, GroupCommit } from '../group-commit';
import { preparedStatementsFor } from '../prepared';
import { userInteractions } from '../schema';

/** An analytics event as stored (id and time are the database's). */
export type InteractionWrite = Omit<typeof userInteractions.$inferInsert, 'id' | 'created_at'>;

/** Funnel counts over a window (by default the last 7 days). */
export interface Funnel {
  views: number;
  clicks: number;
  signups: number;
  conversions: number;
}

/** Stores one or many interactions in one statement; returns how many were stored. */
export async function insertInteractions(db: Db, events: InteractionWrite | InteractionWrite[]): Promise<number> {
  const list = Array.isArray(events) ? events : [events];
  if (list.length === 0) return 0;
  await db.insert(userInteractions).values(list);
  return list.length;
}

/**
 * An event as the browser reports it: a view or a click, never a conversion value (signups,
 * joins and their values are the server's own writes, through insertInteractions).
 */
export type EventWrite = Omit<InteractionWrite, 'conversion_value' | 'interaction_type'> & {
  interaction_type: BrowserInteractionType;
};

const EVENT_COLUMNS = [
  'interaction_type',
  'target_type',
  'target_id',
  'server_id',
  'metadata',
  'session_id',
  'user_agent',
  'ip_address',
  'campaign_id',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
] as const;

/**
 * Stores browser-reported events in one statement: ids of unknown servers are kept only as
 * target_id (the join with discord_servers drops what the foreign key would refuse). Their
 * conversion_value stays null: nothing a browser sends is worth anything (values are set by the
 * server's own writes: a join through /go, a stored newsletter signup).
 */
export async function insertEvents(db: Db, events: EventWrite[]): Promise<number> {
  if (events.length === 0) return 0;
  const args: InValue[] = [];
  for (const e of events) {
    // In EVENT_COLUMNS order, spelled out: a loop over the column names cost a comparison per value.
    args.push(
      e.interaction_type,
      e.target_type,
      e.target_id ?? (e.server_id == null ? null : String(e.server_id)),
      e.server_id ?? null,
      e.metadata == null ? null : JSON.stringify(e.metadata),
      e.session_id ?? null,
      e.user_agent ?? null,
      e.ip_address ?? null,
      e.campaign_id ?? null,
      e.referrer ?? null,
      e.utm_source ?? null,
      e.utm_medium ?? null,
      e.utm_campaign ?? null,
    );
  }
  // One time for the batch (the rows are committed together), in the column default's ISO
  // form: bound once, where the default would format the time again for every row.
  args.push(new Date().toISOString());
  // Plain SQL text and arguments: building this through drizzle's template cost more than the
  // write itself on the events hot path (hundreds of SQL objects per batch). Where the runtime
  // keeps statements prepared (Node, file database) the statement is not compiled again.
  const sql = eventInsertSql(events.length);
  const prepared = preparedStatementsFor(db);
  if (prepared) await prepared.run(sql, args);
  else await rawClient(db).execute({ sql, args });
  return events.length;
}

/** Writes are gathered turn by turn of the event loop, up to this many turns while rows keep arriving. */
const WINDOW_TURNS = 4;

/** Largest number of events per shared write (13 bound values each, under SQLite's limit). */
const MAX_ROWS_PER_WRITE = 500;

/** Whether this runtime shares writes between requests (fixed for the life of the process or isolate). */
const GROUP_COMMIT = canGroupCommit();

/** One group commit per database (tests and the bench open many). */
const eventCommits = new WeakMap<Db, GroupCommit<EventWrite, true>>();

/**
 * Stores browser-reported events (insertEvents), sharing the write with concurrent callers where
 * the runtime allows (db/group-commit.ts): under load, requests' events go into one multi-row
 * INSERT and one commit instead of one each, which is where the busiest write's speed comes from.
 * Resolves once the caller's own rows are stored; answers how many.
 */
export function recordEvents(db: Db, events: EventWrite[]): Promise<number> {
  if (!GROUP_COMMIT) return insertEvents(db, events);
  let commit = eventCommits.get(db);
  if (!commit) {
    commit = new GroupCommit(
      async (rows) => {
        await insertEvents(db, rows);
        return rows.map(() => true as const);
      },
      MAX_ROWS_PER_WRITE,
      undefined,
      WINDOW_TURNS,
    );
    eventCommits.set(db, commit);
  }
  return commit.add(events).then((stored) => stored.length);
}

const eventSqlCache = new Map<number, string>();
/** The INSERT..SELECT of `n` events and their shared time (the last argument), cached per batch size. */
function eventInsertSql(n: number): string {
  let text = eventSqlCache.get(n);
  if (!text) {
    const row = `(${Array(EVENT_COLUMNS.length).fill('?').join(', ')})`;
    const cols = EVENT_COLUMNS.join(', ');
    const picked = EVENT_COLUMNS.map((c) => (c === 'server_id' ? 's.id' : `v.${c}`)).join(', ');
    text = `WITH v(${cols}) AS (VALUES ${Array(n).fill(row).join(', ')})
INSERT INTO user_interactions (${cols}, created_at)
SELECT ${picked}, ?${n * EVENT_COLUMNS.length + 1}
FROM v LEFT JOIN discord_servers s ON s.id = v.server_id`;
    if (eventSqlCache.size < 1000) eventSqlCache.set(n, text);
  }
  return text;
}

/** The libSQL client under drizzle (Node and web clients alike expose it as $client). */
const rawClient = (db: Db): Client => (db as Db & { $client: Client }).$client;

/**
 * Views, clicks, signups and conversions of the last `days` UTC calendar days (7, today included:
 * utc-days.ts, the dashboard chart's days), optionally for one server.
 */
export async function getFunnel(
  db: Db,
  options: { serverId?: number | undefined; days?: number; now?: number } = {},
): Promise<Funnel> {
  const since = utcDaysSince(options.days ?? 7, options.now ?? Date.now());
  const rows = await db
    .select({ type: userInteractions.interaction_type, n: sql<number>`count(*)` })
    .from(userInteractions)
    .where(
      and(
        gte(userInteractions.created_at, since),
        options.serverId !== undefined ? eq(userInteractions.server_id, options.serverId) : undefined,
      ),
    )
    .groupBy(userInteractions.interaction_type);
  const funnel: Funnel = { views: 0, clicks: 0, signups: 0, conversions: 0 };
  const key: Partial<Record<string, keyof Funnel>> = {
    view: 'views',
    click: 'clicks',
    signup: 'signups',
    conversion: 'conversions',
  };
  // Saves, shares and reports are actions of their own, not funnel steps.
  for (const r of rows) {
    const k = key[r.type];
    if (k) funnel[k] = Number(r.n);
  }
  return funnel;
}

/** Every kind's row count and conversion value over a window: the dashboard's figures. */
export interface ActionTotals {
  counts: Record<InteractionType, number>;
  /** Sum of conversion_value per kind (rows without a value are worth 0). */
  values: Record<InteractionType, number>;
  /** Sum of every value: joins, signups and premium call-to-action clicks (their worth, not money: revenue is orders'). */
  worth: number;
}

/**
 * Row count and value of each kind over the last `days` UTC calendar days (7, today included:
 * utc-days.ts, the dashboard chart's days), so one action shows once, at its worth.
 */
export async function getActionTotals(db: Db, options: { days?: number; now?: number } = {}): Promise<ActionTotals> {
  const since = utcDaysSince(options.days ?? 7, options.now ?? Date.now());
  const rows = await db
    .select({
      type: userInteractions.interaction_type,
      n: sql<number>`count(*)`,
      value: sql<number>`coalesce(sum(${userInteractions.conversion_value}), 0)`,
    })
    .from(userInteractions)
    .where(gte(userInteractions.created_at, since))
    .groupBy(userInteractions.interaction_type);
  const zero = () => Object.fromEntries(INTERACTION_TYPES.map((t) => [t, 0])) as Record<InteractionType, number>;
  const totals: ActionTotals = { counts: zero(), values: zero(), worth: 0 };
  for (const r of rows) {
    // A kind this build does not know (written by a newer one) still counts toward the worth.
    if (r.type in totals.counts) {
      totals.counts[r.type] = Number(r.n);
      totals.values[r.type] = Number(r.value);
    }
    totals.worth += Number(r.value);
  }
  return totals;
}

/** Number of stored interactions (benchmarks and tests compare it with 2xx answers). */
export async function countInteractions(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(userInteractions);
  return Number(row?.n ?? 0);
}
