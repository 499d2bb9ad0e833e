import type { Client, InStatement } from '@libsql/client';
import { and, asc, desc, eq, gt, isNull, type SQL, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/sqlite-core';
import type { FlagVerdict } from '../../src/lib/enums';
import { ANOMALY, type Anomaly, type AnomalyRule } from '../../src/lib/ranking/anomalies';
import type { Db } from '../client';
import { readBuilt } from '../prepared';
import { discordServers, jobState, serverFlags } from '../schema';
import { type AuditWrite, withAudit } from './audit';

/** A stored anomaly flag. */
export type Flag = typeof serverFlags.$inferSelect;

/** A flag in the moderators' queue, with what they need to judge it. */
export interface QueuedFlag {
  id: number;
  server_id: number;
  rule: string;
  detail: string;
  opened_at: string;
  name: string;
  slug: string;
  category: string;
  members: number;
  active_users: number;
  invite_status: string;
}

/** A confirmed flag, the only kind visitors ever see. */
export interface PublicFlag {
  server_id: number;
  rule: string;
  detail: string;
  opened_at: string;
}

const DAY = 86_400_000;
const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY).toISOString();
const rawClient = (db: Db): Client => (db as Db & { $client: Client }).$client;

/** Whether any anomaly flag opened after `since` (ISO time): one a rank recompute has not weighed yet. */
export async function flagOpenedSince(db: Db, since: string): Promise<boolean> {
  const [row] = await db
    .select({ id: serverFlags.id })
    .from(serverFlags)
    .where(gt(serverFlags.opened_at, since))
    .limit(1);
  return !!row;
}

/**
 * Opens a flag for each (server, rule) that has none open and was not dismissed in the last 30
 * days (the partial unique index keeps one open flag per pair). Returns how many were opened.
 */
export async function openFlags(
  db: Db,
  found: readonly { serverId: number; anomaly: Anomaly }[],
  now: Date,
): Promise<number> {
  if (found.length === 0) return 0;
  const opened = now.toISOString();
  const dismissedSince = daysBefore(now, ANOMALY.dismissedDays);
  const statements: InStatement[] = found.map(({ serverId, anomaly }) => ({
    sql: `INSERT INTO server_flags (server_id, rule, detail, opened_at)
SELECT ?1, ?2, ?3, ?4
WHERE NOT EXISTS (SELECT 1 FROM server_flags WHERE server_id = ?1 AND rule = ?2
  AND (closed_at IS NULL OR (verdict = 'dismissed' AND closed_at >= ?5)))`,
    args: [serverId, anomaly.rule, anomaly.detail, opened, dismissedSince],
  }));
  const results = await rawClient(db).batch(statements, 'write');
  return results.reduce((n, r) => n + r.rowsAffected, 0);
}

/**
 * Closes the open flags of these listings whose rule no longer fires: unreviewed ones opened more
 * than 14 days ago, confirmed ones after 30 (a public label does not outlive its evidence for long).
 */
export async function closeQuietFlags(
  db: Db,
  firing: ReadonlyMap<number, ReadonlySet<AnomalyRule>>,
  evaluated: readonly number[],
  now: Date,
): Promise<number> {
  if (evaluated.length === 0) return 0;
  const quiet = daysBefore(now, ANOMALY.quietDays);
  const confirmedQuiet = daysBefore(now, ANOMALY.confirmedQuietDays);
  const evaluatedSet = new Set(evaluated);
  const open = await db
    .select({
      id: serverFlags.id,
      server_id: serverFlags.server_id,
      rule: serverFlags.rule,
      verdict: serverFlags.verdict,
      opened_at: serverFlags.opened_at,
    })
    .from(serverFlags)
    .where(isNull(serverFlags.closed_at));
  const stale = open.filter(
    (f) =>
      evaluatedSet.has(f.server_id) &&
      !firing.get(f.server_id)?.has(f.rule as AnomalyRule) &&
      f.opened_at < (f.verdict === 'confirmed' ? confirmedQuiet : quiet),
  );
  if (stale.length === 0) return 0;
  await rawClient(db).batch(
    stale.map((f) => ({ sql: 'UPDATE server_flags SET closed_at = ? WHERE id = ?', args: [now.toISOString(), f.id] })),
    'write',
  );
  return stale.length;
}

/** The moderators' queue: open flags nobody has reviewed yet, oldest first, with their listing. */
export async function listFlagQueue(db: Db, limit = 200): Promise<QueuedFlag[]> {
  return db
    .select({
      id: serverFlags.id,
      server_id: serverFlags.server_id,
      rule: serverFlags.rule,
      detail: serverFlags.detail,
      opened_at: serverFlags.opened_at,
      name: discordServers.name,
      slug: discordServers.slug,
      category: discordServers.category,
      members: discordServers.members,
      active_users: discordServers.active_users,
      invite_status: discordServers.invite_status,
    })
    .from(serverFlags)
    .innerJoin(discordServers, eq(discordServers.id, serverFlags.server_id))
    .where(and(isNull(serverFlags.closed_at), isNull(serverFlags.verdict)))
    .orderBy(asc(serverFlags.opened_at), asc(serverFlags.id))
    .limit(limit);
}

/** How many flags wait for a moderator. */
export async function countFlagQueue(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(serverFlags)
    .where(and(isNull(serverFlags.closed_at), isNull(serverFlags.verdict)));
  return row?.n ?? 0;
}

/**
 * A moderator's verdict on an open, unreviewed flag: confirmed keeps it open (the public label
 * and the rank penalty stay); dismissed closes it (and keeps the rule from reopening for 30 days).
 * The operator's audit row in the same batch. Null when there is no such flag waiting.
 */
export async function reviewFlag(
  db: Db,
  id: number,
  verdict: FlagVerdict,
  reviewer: string,
  now: Date,
  audit?: AuditWrite,
): Promise<Flag | null> {
  const [row] = await withAudit(
    db,
    db
      .update(serverFlags)
      .set({ verdict, reviewed_by: reviewer, ...(verdict === 'dismissed' ? { closed_at: now.toISOString() } : {}) })
      .where(and(eq(serverFlags.id, id), isNull(serverFlags.closed_at), isNull(serverFlags.verdict)))
      .returning(),
    audit,
  );
  return row ?? null;
}

/** A flag by id, or null. */
export async function getFlag(db: Db, id: number): Promise<Flag | null> {
  const [row] = await db.select().from(serverFlags).where(eq(serverFlags.id, id));
  return row ?? null;
}

/** What a visitor sees of a flag: a confirmed one that is still open (the same read for the build and one page). */
const PUBLIC_FLAG = {
  server_id: serverFlags.server_id,
  rule: serverFlags.rule,
  detail: serverFlags.detail,
  opened_at: serverFlags.opened_at,
};
const isPublicFlag = (where?: SQL) => and(isNull(serverFlags.closed_at), eq(serverFlags.verdict, 'confirmed'), where);

/**
 * Every confirmed, still open flag, per listing: the only flags visitors see. One read per build
 * (src/data/site-data.ts), newest first within a listing.
 */
export async function confirmedFlags(db: Db): Promise<Map<number, PublicFlag[]>> {
  const rows = await db
    .select(PUBLIC_FLAG)
    .from(serverFlags)
    .where(isPublicFlag())
    .orderBy(asc(serverFlags.server_id), desc(serverFlags.opened_at));
  const out = new Map<number, PublicFlag[]>();
  for (const r of rows) {
    const list = out.get(r.server_id);
    if (list) list.push(r);
    else out.set(r.server_id, [r]);
  }
  return out;
}

/** confirmedFlags of one listing (an on-demand server page, #18), newest first. */
export async function confirmedFlagsOf(db: Db, serverId: number): Promise<PublicFlag[]> {
  const rows = await readBuilt(db, ONE_LISTING_FLAGS, { id: serverId });
  return rows.map((r) => ({
    server_id: r.server_id as number,
    rule: r.rule as string,
    detail: r.detail as string,
    opened_at: r.opened_at as string,
  }));
}

/** confirmedFlagsOf's read, built once (a page rendered on request makes it). */
const ONE_LISTING_FLAGS = new QueryBuilder()
  .select(PUBLIC_FLAG)
  .from(serverFlags)
  .where(isPublicFlag(eq(serverFlags.server_id, sql.placeholder('id'))))
  .orderBy(desc(serverFlags.opened_at))
  .toSQL();

/** Records a job's run (time and summary) in its state row, creating the row the first time. */
export async function recordJobRun(db: Db, name: string, at: Date, summary: Record<string, unknown>): Promise<void> {
  await db
    .insert(jobState)
    .values({ name, last_run_at: at.toISOString(), last_run_summary: summary })
    .onConflictDoUpdate({ target: jobState.name, set: { last_run_at: at.toISOString(), last_run_summary: summary } });
}
