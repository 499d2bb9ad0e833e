import { and, asc, desc, eq, isNotNull, lt, lte, ne, sql } from 'drizzle-orm';
import type { CheckResult, ListingFreshness } from '../../src/lib/invite-checks/state';
import type { OwnerEvent } from '../../src/lib/owners/notifications';
import type { Db } from '../client';
import { auditLog, discordServers, jobState, serverSnapshots, serverSubmissions } from '../schema';
import { enqueueMail, type MailInput } from './mail';
import { notifyOwner } from './webhooks';

const iso = (ms: number) => new Date(ms).toISOString();

/** A listing as the refresh job sees it: its id, invite code and freshness fields. */
export interface DueServer extends ListingFreshness {
  id: number;
  invite_code: string;
  next_check_at: string;
  last_checked_at: string | null;
}

const dueColumns = {
  id: discordServers.id,
  invite_code: sql<string>`${discordServers.invite_code}`,
  guild_id: discordServers.guild_id,
  guild_icon: discordServers.guild_icon,
  invite_status: discordServers.invite_status,
  members: discordServers.members,
  active_users: discordServers.active_users,
  last_ok_at: discordServers.last_ok_at,
  fail_streak: discordServers.fail_streak,
  first_fail_at: discordServers.first_fail_at,
  transient_streak: discordServers.transient_streak,
  next_check_at: discordServers.next_check_at,
  last_checked_at: discordServers.last_checked_at,
};

/** Listings the job checks: those with an invite code (a listing without one has nothing to look up). */
const checkable = isNotNull(discordServers.invite_code);
const dueAt = (now: number, all: boolean) =>
  all ? checkable : and(checkable, lte(discordServers.next_check_at, iso(now)));

/**
 * The listings due at `now` (next_check_at <= now; '' is always due), the longest-waiting first,
 * at most `limit`; `all` takes every listing with an invite code in the same order. Past the
 * budget's capacity this order is the slower lane: whoever waited longest goes next.
 */
export function listDueServers(
  db: Db,
  now: number,
  { all = false, limit }: { all?: boolean; limit: number },
): Promise<DueServer[]> {
  return db
    .select(dueColumns)
    .from(discordServers)
    .where(dueAt(now, all))
    .orderBy(asc(discordServers.next_check_at), asc(discordServers.id))
    .limit(limit);
}

/** How many listings are due at `now` (or, with `all`, have an invite code). */
export async function countDueServers(db: Db, now: number, { all = false }: { all?: boolean } = {}): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(discordServers).where(dueAt(now, all));
  return Number(row?.n ?? 0);
}

/** One listing's freshness fields, or null when it does not exist or has no invite code. */
export async function getDueServer(db: Db, serverId: number): Promise<DueServer | null> {
  const [row] = await db
    .select(dueColumns)
    .from(discordServers)
    .where(and(eq(discordServers.id, serverId), checkable));
  return row ?? null;
}

/** Whether another listing already holds this guild (one listing per guild). */
export async function guildListedElsewhere(db: Db, guildId: string, serverId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: discordServers.id })
    .from(discordServers)
    .where(and(eq(discordServers.guild_id, guildId), ne(discordServers.id, serverId)))
    .limit(1);
  return row !== undefined;
}

// --- job_state: lease, budget window, breaker, last run ---------------------------------------

/** A job's row of job_state. */
export type JobState = typeof jobState.$inferSelect;

/** The job_state row of `name`, or null before the job first ran. */
export async function getJobState(db: Db, name: string): Promise<JobState | null> {
  const [row] = await db.select().from(jobState).where(eq(jobState.name, name));
  return row ?? null;
}

/** Creates the job's row when it has none yet. */
export async function ensureJobState(db: Db, name: string): Promise<void> {
  await db.insert(jobState).values({ name }).onConflictDoNothing();
}

/**
 * Takes the job's lease until `now + ms` for `holder` when nobody holds it (or the last holder's
 * lease ran out): one conditional UPDATE, so of two runners racing exactly one wins. True when taken.
 */
export async function acquireLease(db: Db, name: string, holder: string, now: number, ms: number): Promise<boolean> {
  await ensureJobState(db, name);
  const result = await db
    .update(jobState)
    .set({ lease_until: iso(now + ms), lease_holder: holder })
    .where(and(eq(jobState.name, name), lt(jobState.lease_until, iso(now))));
  return result.rowsAffected === 1;
}

/** Gives the lease back (only the holder's own lease). */
export async function releaseLease(db: Db, name: string, holder: string): Promise<void> {
  await db
    .update(jobState)
    .set({ lease_until: '', lease_holder: null })
    .where(and(eq(jobState.name, name), eq(jobState.lease_holder, holder)));
}

/** What the circuit breaker says after an answer: stop until `blockedUntil`. */
export interface Breaker {
  blockedUntil: string;
  reason: string;
  level: number;
}

/**
 * Writes what one lookup did, in one batch: the budget window (every lookup counts, a 429 too),
 * the listing's update, its history row, its alerts (audit log) and the mails and owners' notices
 * they cause when the answer was definitive,
 * and the breaker when the answer stopped the job (or its level back to 0 once Discord answers again).
 */
export async function recordLookup(
  db: Db,
  name: string,
  lookup: {
    /** When the lookup was made, and whether it opens a new budget window (budgetAt) or counts in the open one. */
    window: { at: string; opensNew: boolean };
    serverId?: number | undefined;
    check?: CheckResult | undefined;
    breaker?: Breaker | { level: 0 } | undefined;
    /** Mails the check causes (#16: the dead invite's notice to the submitter), written with it. */
    mails?: MailInput[] | undefined;
    /** Owners' Discord webhook notices the check causes (#32: the dead invite), written with it too. */
    notices?: { event: OwnerEvent; dedupeKey: string }[] | undefined;
  },
): Promise<JobState> {
  const { window, serverId, check, breaker } = lookup;
  // What the check asks of people, kept in the audit log (no operator: the job wrote it): a dead
  // listing's owner (who also gets the mail in `mails`), the operators for a wrong guild.
  const alerts =
    serverId !== undefined && check?.snapshot && check.alerts.length > 0
      ? [
          db.insert(auditLog).values(
            check.alerts.map((alert) => ({
              operator_email: 'refresh job',
              action: `refresh.${alert.kind}`,
              entity: 'server',
              entity_id: String(serverId),
              details: { ...alert },
              created_at: check.snapshot!.checked_at,
            })),
          ),
        ]
      : [];
  const state = db
    .update(jobState)
    .set({
      // window_start holds the window's last lookup: the window closes 10 minutes after it (budgetAt).
      window_start: window.at,
      // Counted in SQL: a console "refresh now" may count in the same window while a pass runs.
      window_count: window.opensNew ? 1 : sql`${jobState.window_count} + 1`,
      ...(breaker && 'reason' in breaker
        ? { blocked_until: breaker.blockedUntil, block_reason: breaker.reason, block_level: breaker.level }
        : breaker
          ? { block_level: 0 }
          : {}),
    })
    .where(eq(jobState.name, name));
  // The job's row as this write left it, read in the same round trip (the next lookup's budget).
  const after = db.select().from(jobState).where(eq(jobState.name, name));
  const listing =
    serverId !== undefined && check && (Object.keys(check.update).length > 0 || check.snapshot)
      ? [db.update(discordServers).set(check.update).where(eq(discordServers.id, serverId))]
      : [];
  // Two checks of one listing in the same millisecond keep the first history row.
  const snapshot =
    serverId !== undefined && check?.snapshot
      ? [
          db
            .insert(serverSnapshots)
            .values({ server_id: serverId, ...check.snapshot })
            .onConflictDoNothing(),
        ]
      : [];
  const mails = check?.snapshot ? (lookup.mails ?? []).map((m) => enqueueMail(db, m)) : [];
  const notices =
    serverId !== undefined && check?.snapshot
      ? (lookup.notices ?? []).map((n) => notifyOwner(db, { serverId }, n.event, n.dedupeKey))
      : [];
  const results = await db.batch([state, ...listing, ...snapshot, ...alerts, ...mails, ...notices, after]);
  return (results.at(-1) as JobState[])[0]!;
}

/**
 * Trips the breaker of job `name` (a submission check's lookup got a 429 or a block page: the
 * refresh job waits too), never shortening a hold already there.
 */
export async function tripBreaker(db: Db, name: string, breaker: Breaker): Promise<void> {
  await db.insert(jobState).values({ name }).onConflictDoNothing();
  await db
    .update(jobState)
    .set({ blocked_until: breaker.blockedUntil, block_reason: breaker.reason, block_level: breaker.level })
    .where(and(eq(jobState.name, name), sql`${jobState.blocked_until} < ${breaker.blockedUntil}`));
}

/** Clears the breaker of job `name` (an admin in the console): lookups resume at once, the ladder starts over. */
export async function clearBreaker(db: Db, name: string): Promise<JobState | null> {
  const [row] = await db
    .update(jobState)
    .set({ blocked_until: '', block_reason: null, block_level: 0 })
    .where(eq(jobState.name, name))
    .returning();
  return row ?? null;
}

/** Who a listing's mails go to (#16): its name and slug, and the contact address of the submission it was approved from. */
export async function getListingContact(
  db: Db,
  serverId: number,
): Promise<{ name: string; slug: string; contactEmail: string | null } | null> {
  const [[listing], [submission]] = await db.batch([
    db
      .select({ name: discordServers.name, slug: discordServers.slug })
      .from(discordServers)
      .where(eq(discordServers.id, serverId)),
    db
      .select({ contactEmail: serverSubmissions.contact_email })
      .from(serverSubmissions)
      .where(and(eq(serverSubmissions.server_id, serverId), eq(serverSubmissions.status, 'approved')))
      .orderBy(desc(serverSubmissions.id))
      .limit(1),
  ]);
  return listing ? { ...listing, contactEmail: submission?.contactEmail ?? null } : null;
}

/** Applies one check to a listing (update and history row in one batch), outside any job's budget. */
export async function applyServerCheck(db: Db, serverId: number, check: CheckResult): Promise<void> {
  const update = db.update(discordServers).set(check.update).where(eq(discordServers.id, serverId));
  if (!check.snapshot) {
    if (Object.keys(check.update).length > 0) await update;
    return;
  }
  await db.batch([
    update,
    db
      .insert(serverSnapshots)
      .values({ server_id: serverId, ...check.snapshot })
      .onConflictDoNothing(),
  ]);
}

/** A pass's summary, stored as the job's last run (the console's Freshness screen shows it). */
export interface RunSummary {
  checked: number;
  ok: number;
  unknown: number;
  transient: number;
  /** Due listings left for a later pass (budget spent, breaker tripped or pass stopped). */
  skipped: number;
  lookups: number;
  /** ISO time the breaker holds the job until, or null. */
  blockedUntil: string | null;
  [key: string]: unknown;
}

/** Records the end of a pass: when it ran and its summary. */
export async function recordRun(db: Db, name: string, now: number, summary: RunSummary): Promise<void> {
  await db
    .update(jobState)
    .set({ last_run_at: iso(now), last_run_summary: summary })
    .where(eq(jobState.name, name));
}

/** The last pass of a job: when it ran and what it did, or null before the first. */
export async function getLastRun(db: Db, name: string): Promise<{ at: string; summary: RunSummary } | null> {
  const state = await getJobState(db, name);
  if (!state?.last_run_at || !state.last_run_summary) return null;
  return { at: state.last_run_at, summary: state.last_run_summary as RunSummary };
}

/** History rows written so far (benchmarks: one per answered lookup). */
export async function countSnapshots(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(serverSnapshots);
  return Number(row?.n ?? 0);
}
