import { and, eq, gte, sql } from 'drizzle-orm';
import { conversionValue } from '../../src/lib/enums';
import type { Db } from '../client';
import { discordServers, type InteractionRow, userInteractions } from '../schema';

export type Interaction = InteractionRow;
export type InteractionWrite = Omit<typeof userInteractions.$inferInsert, 'id' | 'created_at'>;

/** Funnel counts over a window (SPEC section 7: last 7 days). */
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

/** An event as the browser reports it; server_id is checked and conversion_value computed on insert. */
export type EventWrite = Omit<InteractionWrite, 'conversion_value'>;

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
 * Stores analytics events in one statement: ids of unknown servers are kept only as target_id
 * (the foreign key would refuse them), and conversion values come from SPEC section 9, never
 * from the client. Each row carries both possible values (conversionValue for a plain and for a
 * premium server) and the join with discord_servers picks one, so no separate read is needed.
 */
export async function insertEvents(db: Db, events: EventWrite[]): Promise<number> {
  if (events.length === 0) return 0;
  const rows = events.map((e) => {
    const values = EVENT_COLUMNS.map((col) => {
      if (col === 'target_id') return e.target_id ?? (e.server_id == null ? null : String(e.server_id));
      if (col === 'metadata') return e.metadata == null ? null : JSON.stringify(e.metadata);
      return e[col] ?? null;
    });
    values.push(
      conversionValue(e.interaction_type, e.target_type, false),
      conversionValue(e.interaction_type, e.target_type, true),
    );
    return sql`(${sql.join(
      values.map((v) => sql`${v}`),
      sql`, `,
    )})`;
  });
  const cols = sql.raw(EVENT_COLUMNS.join(', '));
  const picked = sql.raw(EVENT_COLUMNS.map((c) => (c === 'server_id' ? 's.id' : `v.${c}`)).join(', '));
  await db.run(sql`WITH v(${cols}, cv_plain, cv_premium) AS (VALUES ${sql.join(rows, sql`, `)})
INSERT INTO ${userInteractions} (${cols}, conversion_value)
SELECT ${picked}, CASE WHEN s.is_premium = 1 OR s.is_sponsored = 1 THEN v.cv_premium ELSE v.cv_plain END
FROM v LEFT JOIN ${discordServers} s ON s.id = v.server_id`);
  return events.length;
}

/** The insert statement of one interaction, for callers that batch it with another write. */
export const interactionInsert = (db: Db, event: InteractionWrite) => db.insert(userInteractions).values(event);

/** Views, clicks, signups and conversions of the last `days` days (7), optionally for one server. */
export async function getFunnel(
  db: Db,
  options: { serverId?: number | undefined; days?: number } = {},
): Promise<Funnel> {
  const since = new Date(Date.now() - (options.days ?? 7) * 86_400_000).toISOString();
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
  const key = { view: 'views', click: 'clicks', signup: 'signups', conversion: 'conversions' } as const;
  for (const r of rows) funnel[key[r.type]] = Number(r.n);
  return funnel;
}

/** Number of stored interactions (benchmarks and tests compare it with 2xx answers). */
export async function countInteractions(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(userInteractions);
  return Number(row?.n ?? 0);
}
