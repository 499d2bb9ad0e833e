// Owner accounts (#17): owners signed in with Discord, their sessions (separate from operators'),
// the listings their guild list proves theirs, and their account's deletion.
import { and, asc, desc, eq, gte, inArray, isNull, like, lte, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { ClaimProof } from '../../src/lib/enums';
import { base64url, sha256Hex } from '../../src/lib/hash';
import type { CheckResult } from '../../src/lib/invite-checks/state';
import { EDITABLE_FIELDS } from '../../src/lib/schemas/owner';
import type { Db } from '../client';
import {
  auditLog,
  discordServers,
  listingEdits,
  type OwnerRow,
  oauthStates,
  ownerSessions,
  ownerUsers,
  type ServerRow,
  serverClaims,
  serverSnapshots,
  serverSubmissions,
  userInteractions,
} from '../schema';
import { memberHistory } from './history';
import { groupedByParent } from './related';
import { accountReviewCleanup } from './reviews';
import { serverColumns } from './server-rows';

/** An owner session ends after this long without a request (sliding). */
export const OWNER_SESSION_IDLE_MS = 24 * 60 * 60 * 1000;
/** An owner session ends this long after sign-in, however active. */
export const OWNER_SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** Touching last_seen_at more often than this is pointless write traffic. */
const TOUCH_EVERY_MS = 60 * 1000;

const randomToken = () => base64url(crypto.getRandomValues(new Uint8Array(32)));
const iso = (ms: number) => new Date(ms).toISOString();

/** What the account page and the middleware know of a signed-in owner. */
export type PublicOwner = Pick<OwnerRow, 'id' | 'discord_user_id' | 'username' | 'global_name' | 'avatar'>;

/** A live owner session with its owner. */
export interface ActiveOwnerSession {
  id: string;
  csrfToken: string;
  owner: PublicOwner;
  /** The guilds the sign-in that made this session proved the owner's and the last sign-in still shows (guild id → proof). */
  guilds: Readonly<Record<string, ClaimProof>>;
  /** When that sign-in was (the proof's age). */
  signedInAt: string;
}

/** Guild ids a session keeps at most (Discord lists up to 200 guilds; few are managed). */
const MAX_PROVEN_GUILDS = 200;

/**
 * A session's proofs that the owner's last sign-in still shows: a session kept from before a
 * sign-in that no longer listed a guild proves nothing of it.
 */
function stillProven(session: Readonly<Record<string, unknown>>, last: Readonly<Record<string, unknown>>) {
  const out: Record<string, ClaimProof> = {};
  for (const [id, proof] of Object.entries(provenGuilds(session))) {
    const now = last[id];
    if (now === 'owner' || now === 'manage_guild') out[id] = now === proof ? proof : 'manage_guild';
  }
  return out;
}

/** A proof map as stored: only the two proofs, at most MAX_PROVEN_GUILDS. */
function provenGuilds(managed: ReadonlyMap<string, ClaimProof> | Readonly<Record<string, unknown>>) {
  const entries = managed instanceof Map ? [...managed] : Object.entries(managed);
  const out: Record<string, ClaimProof> = {};
  for (const [id, proof] of entries.slice(0, MAX_PROVEN_GUILDS))
    if (proof === 'owner' || proof === 'manage_guild') out[id] = proof;
  return out;
}

/** Creates the owner of a Discord user, or refreshes their name and avatar; returns the row. */
export async function upsertOwner(
  db: Db,
  user: { id: string; username: string; global_name: string | null; avatar: string | null },
  now = Date.now(),
): Promise<OwnerRow> {
  const fields = {
    username: user.username,
    global_name: user.global_name,
    avatar: user.avatar,
    last_login_at: iso(now),
  };
  const [row] = await db
    .insert(ownerUsers)
    .values({ discord_user_id: user.id, ...fields })
    .onConflictDoUpdate({ target: ownerUsers.discord_user_id, set: fields })
    .returning();
  return row!;
}

/** The owner of a Discord user id, or null. */
export async function getOwnerByDiscordId(db: Db, discordUserId: string): Promise<OwnerRow | null> {
  const [row] = await db.select().from(ownerUsers).where(eq(ownerUsers.discord_user_id, discordUserId)).limit(1);
  return row ?? null;
}

/** The owner sessions getActiveOwnerSession refuses at `now`: idle too long, or past their absolute expiry. */
const expiredOwnerSessions = (now: number) =>
  or(lte(ownerSessions.expires_at, iso(now)), lte(ownerSessions.last_seen_at, iso(now - OWNER_SESSION_IDLE_MS)));

/**
 * Deletes every owner session getActiveOwnerSession would refuse at `now` (the session sweep,
 * functions/_app/jobs/session-sweep.ts, beside the console's). Returns how many went.
 */
export async function deleteExpiredOwnerSessions(db: Db, now = Date.now()): Promise<number> {
  const result = await db.delete(ownerSessions).where(expiredOwnerSessions(now));
  return result.rowsAffected;
}

/**
 * Starts an owner session: a random token for the cookie (only its SHA-256 is stored), a CSRF
 * token for the account page's writes, and the guilds this sign-in proved the owner's (`managed`),
 * kept with the session (a submission's proof) and on the owner (what the last sign-in showed, for
 * the re-proof at approval). Expired owner sessions are swept on the way; one batch.
 */
export async function createOwnerSession(
  db: Db,
  ownerId: number,
  now = Date.now(),
  managed: ReadonlyMap<string, ClaimProof> = new Map(),
): Promise<{ token: string; csrfToken: string; expiresAt: string }> {
  const token = randomToken();
  const csrfToken = randomToken();
  const expiresAt = iso(now + OWNER_SESSION_ABSOLUTE_MS);
  const guilds = provenGuilds(managed);
  await db.batch([
    db.delete(ownerSessions).where(expiredOwnerSessions(now)),
    db.insert(ownerSessions).values({
      id: await sha256Hex(token),
      owner_id: ownerId,
      csrf_token: csrfToken,
      guilds,
      created_at: iso(now),
      last_seen_at: iso(now),
      expires_at: expiresAt,
    }),
    db.update(ownerUsers).set({ managed_guilds: guilds }).where(eq(ownerUsers.id, ownerId)),
  ]);
  return { token, csrfToken, expiresAt };
}

/** The live owner session of a cookie token (sliding its idle window), or null; an expired one is deleted. */
export async function getActiveOwnerSession(
  db: Db,
  token: string,
  now = Date.now(),
): Promise<ActiveOwnerSession | null> {
  if (!token || token.length > 200) return null;
  const id = await sha256Hex(token);
  const [row] = await db
    .select({
      id: ownerSessions.id,
      csrf: ownerSessions.csrf_token,
      guilds: ownerSessions.guilds,
      lastGuilds: ownerUsers.managed_guilds,
      createdAt: ownerSessions.created_at,
      lastSeen: ownerSessions.last_seen_at,
      expiresAt: ownerSessions.expires_at,
      ownerId: ownerUsers.id,
      discordUserId: ownerUsers.discord_user_id,
      username: ownerUsers.username,
      globalName: ownerUsers.global_name,
      avatar: ownerUsers.avatar,
    })
    .from(ownerSessions)
    .innerJoin(ownerUsers, eq(ownerUsers.id, ownerSessions.owner_id))
    .where(eq(ownerSessions.id, id))
    .limit(1);
  if (!row) return null;
  if (Date.parse(row.expiresAt) <= now || Date.parse(row.lastSeen) + OWNER_SESSION_IDLE_MS <= now) {
    await db.delete(ownerSessions).where(eq(ownerSessions.id, id));
    return null;
  }
  if (now - Date.parse(row.lastSeen) > TOUCH_EVERY_MS)
    await db
      .update(ownerSessions)
      .set({ last_seen_at: iso(now) })
      .where(eq(ownerSessions.id, id));
  return {
    id: row.id,
    csrfToken: row.csrf,
    guilds: stillProven(row.guilds ?? {}, row.lastGuilds ?? {}),
    signedInAt: row.createdAt,
    owner: {
      id: row.ownerId,
      discord_user_id: row.discordUserId,
      username: row.username,
      global_name: row.globalName,
      avatar: row.avatar,
    },
  };
}

/**
 * Records a sign-in's OAuth state as used (its SHA-256), sweeping states older than `ttlMs` (whose
 * pending cookies are refused as expired anyway). False when it was used before: a replayed
 * pending cookie cannot sign in twice. One batch.
 */
export async function spendOAuthState(db: Db, state: string, now: number, ttlMs: number): Promise<boolean> {
  const [, inserted] = await db.batch([
    db.delete(oauthStates).where(lte(oauthStates.used_at, iso(now - ttlMs))),
    db
      .insert(oauthStates)
      .values({ id: await sha256Hex(state), used_at: iso(now) })
      .onConflictDoNothing()
      .returning({ id: oauthStates.id }),
  ]);
  return inserted.length === 1;
}

/** Ends one owner session by its cookie token (sign-out). */
export async function deleteOwnerSession(db: Db, token: string): Promise<void> {
  await db.delete(ownerSessions).where(eq(ownerSessions.id, await sha256Hex(token)));
}

/** Live sessions of an owner (tests). */
export async function countOwnerSessions(db: Db, ownerId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(ownerSessions)
    .where(eq(ownerSessions.owner_id, ownerId));
  return Number(row?.n ?? 0);
}

/** What a sign-in did to an owner's claims. */
export interface ClaimSync {
  /** Listings claimed now (new or kept). */
  claimed: number[];
  /** Listings whose claim went: the guild list no longer proves them the owner's. */
  released: number[];
}

/**
 * Brings an owner's claims in line with their guild list at sign-in (`managed`: guild id → proof):
 * every listing of a managed guild is claimed (its proof and checked_at refreshed), and every claim
 * of a guild no longer managed is released.
 */
export async function syncClaims(
  db: Db,
  ownerId: number,
  managed: ReadonlyMap<string, ClaimProof>,
  now = Date.now(),
): Promise<ClaimSync> {
  const guildIds = [...managed.keys()];
  const listings = guildIds.length
    ? await db
        .select({ id: discordServers.id, guild_id: discordServers.guild_id })
        .from(discordServers)
        .where(inArray(discordServers.guild_id, guildIds))
    : [];
  const keep = listings.map((l) => l.id);
  const released = await db
    .delete(serverClaims)
    .where(and(eq(serverClaims.owner_id, ownerId), keep.length ? notInArray(serverClaims.server_id, keep) : undefined))
    .returning({ id: serverClaims.server_id });
  for (const listing of listings) {
    const proof = managed.get(listing.guild_id ?? '')!;
    await db
      .insert(serverClaims)
      .values({ server_id: listing.id, owner_id: ownerId, proof, created_at: iso(now), checked_at: iso(now) })
      .onConflictDoUpdate({
        target: [serverClaims.server_id, serverClaims.owner_id],
        set: { proof, checked_at: iso(now) },
      });
  }
  return { claimed: keep, released: released.map((r) => r.id) };
}

/**
 * What the owner's last sign-in showed of `guildId` ('owner', 'manage_guild' or null), as SQL over
 * `owner_users`: an approval claims a listing only while this still proves it.
 */
export const lastSignInProof = (guildId: string) =>
  sql`json_extract(${ownerUsers.managed_guilds}, ${`$."${guildId.replace(/[^0-9]/g, '')}"`})`;

/** The audit action of a submission sent by a signed-in owner, with the proof their guild list gave. */
export const OWNER_SUBMIT_ACTION = 'owner_submit';

/** The owner's claim on a listing (its proof), or null when the listing is not theirs. */
export async function getClaim(db: Db, ownerId: number, serverId: number): Promise<{ proof: ClaimProof } | null> {
  const [row] = await db
    .select({ proof: serverClaims.proof })
    .from(serverClaims)
    .where(and(eq(serverClaims.owner_id, ownerId), eq(serverClaims.server_id, serverId)))
    .limit(1);
  return row ?? null;
}

/** What "My listings" shows of a listing besides the fields its owner edits (EDITABLE_FIELDS). */
const OWNER_LISTING_SHOWN = [
  'id',
  'name',
  'slug',
  'category',
  'affiliate_link',
  'invite_code',
  'invite_status',
  'is_active',
  'members',
  'active_users',
  'last_checked_at',
] as const;

/** A claimed listing as the account page shows it, with its edit waiting for review (if any). */
export interface OwnerListing
  extends Pick<ServerRow, (typeof OWNER_LISTING_SHOWN)[number] | (typeof EDITABLE_FIELDS)[number]> {
  proof: ClaimProof;
  pending_edit: { id: number; changes: Record<string, { from: unknown; to: unknown }>; created_at: string } | null;
}

/** A submission the owner sent while signed in that is still waiting for review. */
export interface OwnerPendingSubmission {
  id: number;
  server_name: string;
  category: string;
  owner_verified: boolean;
  created_at: string;
}

/** Everything on the owner's "My listings": claimed listings (name order) and submissions still in review. */
export async function listOwnerListings(
  db: Db,
  ownerId: number,
): Promise<{ listings: OwnerListing[]; pending: OwnerPendingSubmission[] }> {
  const rows = await db
    .select({ ...serverColumns([...OWNER_LISTING_SHOWN, ...EDITABLE_FIELDS]), proof: serverClaims.proof })
    .from(serverClaims)
    .innerJoin(discordServers, eq(discordServers.id, serverClaims.server_id))
    .where(eq(serverClaims.owner_id, ownerId))
    .orderBy(asc(discordServers.name));
  // Each listing's newest pending edit.
  const edits = await groupedByParent(
    rows.map((r) => r.id),
    (ids) =>
      db
        .select({
          id: listingEdits.id,
          server_id: listingEdits.server_id,
          changes: listingEdits.changes,
          created_at: listingEdits.created_at,
        })
        .from(listingEdits)
        .where(and(inArray(listingEdits.server_id, ids), eq(listingEdits.status, 'pending')))
        .orderBy(desc(listingEdits.id)),
    (e) => e.server_id,
  );
  const pending = await db
    .select({
      id: serverSubmissions.id,
      server_name: serverSubmissions.server_name,
      category: serverSubmissions.category,
      owner_verified: serverSubmissions.owner_verified,
      created_at: serverSubmissions.created_at,
    })
    .from(serverSubmissions)
    .where(and(eq(serverSubmissions.owner_id, ownerId), inArray(serverSubmissions.status, ['pending', 'under_review'])))
    .orderBy(desc(serverSubmissions.created_at));
  const pendingEdit = (id: number): OwnerListing['pending_edit'] => {
    const newest = edits.get(id)?.[0];
    return newest ? { id: newest.id, changes: newest.changes, created_at: newest.created_at } : null;
  };
  return { listings: rows.map((r) => ({ ...r, pending_edit: pendingEdit(r.id) })), pending };
}

/** Views, join clicks and their ratio over one window. */
export interface NumbersWindow {
  days: number;
  views: number;
  clicks: number;
  /** Join clicks per view (0 when there were no views). */
  conversion: number;
}

/** A listing's numbers for its owner: three windows, the daily views and clicks, the member history. */
export interface ListingNumbers {
  windows: NumbersWindow[];
  /** One row per UTC day of the longest window, oldest first. */
  daily: { date: string; views: number; clicks: number }[];
  /** Each day's last member count from the checks (server_snapshots), oldest first. */
  members: { date: string; members: number; online: number | null }[];
}

/**
 * A listing's views and join clicks (user_interactions 'view' and 'click') over each of `windows`
 * days to `now`, per day over the longest, and its member history from the freshness checks.
 */
export async function listingNumbers(
  db: Db,
  serverId: number,
  windows: readonly number[],
  now = Date.now(),
): Promise<ListingNumbers> {
  const longest = Math.max(...windows);
  const firstDay = iso(now - (longest - 1) * 86_400_000).slice(0, 10);
  const day = sql<string>`substr(${userInteractions.created_at}, 1, 10)`;
  const rows = await db
    .select({
      date: day,
      views: sql<number>`sum(${userInteractions.interaction_type} = 'view')`,
      clicks: sql<number>`sum(${userInteractions.interaction_type} = 'click')`,
    })
    .from(userInteractions)
    .where(
      and(
        eq(userInteractions.server_id, serverId),
        gte(userInteractions.created_at, firstDay),
        inArray(userInteractions.interaction_type, ['view', 'click']),
      ),
    )
    .groupBy(day);
  const byDate = new Map(rows.map((r) => [r.date, r]));
  const daily: ListingNumbers['daily'] = [];
  for (let i = longest - 1; i >= 0; i--) {
    const date = iso(now - i * 86_400_000).slice(0, 10);
    const r = byDate.get(date);
    daily.push({ date, views: Number(r?.views ?? 0), clicks: Number(r?.clicks ?? 0) });
  }
  const summed = windows.map((days) => {
    const span = daily.slice(-days);
    const views = span.reduce((n, d) => n + d.views, 0);
    const clicks = span.reduce((n, d) => n + d.clicks, 0);
    return { days, views, clicks, conversion: views > 0 ? clicks / views : 0 };
  });
  const history = (await memberHistory(db, [serverId], longest, new Date(now))).get(serverId) ?? [];
  return {
    windows: summed,
    daily,
    members: history.map((p) => ({ date: p.checked_at.slice(0, 10), members: p.members, online: p.online })),
  };
}

/** The actor an owner's audit rows name. */
const ownerActor = (owner: Pick<PublicOwner, 'username' | 'discord_user_id'>) =>
  `owner ${owner.username} (Discord ${owner.discord_user_id})`;

/** An owner's audit row as a statement, for a batch (recordOwnerAudit writes one alone). */
export function ownerAuditRow(
  db: Db,
  owner: Pick<PublicOwner, 'id' | 'username' | 'discord_user_id'>,
  entry: { action: string; entity: string; entityId: number | string; details?: Record<string, unknown> },
) {
  return db.insert(auditLog).values({
    operator_id: null,
    operator_email: ownerActor(owner),
    action: entry.action,
    entity: entry.entity,
    entity_id: String(entry.entityId),
    details: { owner_id: owner.id, ...entry.details },
  });
}

/** An owner's audit row written only when `when` holds (SQL read after the batch's earlier statements). */
export function ownerAuditRowWhen(
  db: Db,
  owner: Pick<PublicOwner, 'id' | 'username' | 'discord_user_id'>,
  entry: { action: string; entity: string; entityId: number | string; details?: Record<string, unknown> },
  when: SQL,
) {
  const details = JSON.stringify({ owner_id: owner.id, ...entry.details });
  return db.run(sql`INSERT INTO ${auditLog} (operator_id, operator_email, action, entity, entity_id, details)
SELECT NULL, ${ownerActor(owner)}, ${entry.action}, ${entry.entity}, ${String(entry.entityId)}, ${details}
WHERE ${when}`);
}

/**
 * Records an owner's own write (a replaced invite, a removed listing) in the audit log: operators
 * read who changed what there. The actor is the owner, named by Discord username and id.
 */
export async function recordOwnerAudit(
  db: Db,
  owner: Pick<PublicOwner, 'id' | 'username' | 'discord_user_id'>,
  entry: { action: string; entity: string; entityId: number | string; details?: Record<string, unknown> },
): Promise<void> {
  await ownerAuditRow(db, owner, entry);
}

/**
 * An owner's replacement invite, checked: the check's result on the listing (status ok, counts,
 * its history row), the new join link and code, and the owner's audit row, in one batch.
 */
export async function replaceListingInvite(
  db: Db,
  owner: Pick<PublicOwner, 'id' | 'username' | 'discord_user_id'>,
  listing: { id: number; affiliate_link: string | null; invite_status: string | null },
  check: CheckResult,
  link: { affiliate_link: string; invite_code: string },
  /** The record of the change for the public pages (site_changes rows), in the same batch. */
  publish: BatchItem<'sqlite'>[] = [],
): Promise<void> {
  const at = new Date().toISOString();
  await db.batch([
    db
      .update(discordServers)
      .set({ ...check.update, ...link, updated_at: at })
      .where(eq(discordServers.id, listing.id)),
    ...(check.snapshot
      ? [
          db
            .insert(serverSnapshots)
            .values({ server_id: listing.id, ...check.snapshot })
            .onConflictDoNothing(),
        ]
      : []),
    ownerAuditRow(db, owner, {
      action: 'replace_invite',
      entity: 'server',
      entityId: listing.id,
      details: { from: listing.affiliate_link, to: link.affiliate_link, was: listing.invite_status },
    }),
    ...publish,
  ]);
}

/** How the audit log names an owner: by Discord username and id, with no operator id. */
export const ownerAuthor = (owner: Pick<PublicOwner, 'username' | 'discord_user_id'>) => ({
  operatorId: null,
  name: `owner ${owner.username} (Discord ${owner.discord_user_id})`,
});

/** What the audit log says of an owner's own writes once their account is deleted. */
export const DELETED_OWNER = 'owner (account deleted)';

/**
 * Deletes an owner's account and everything tied to it: sessions and claims (cascade), edits still
 * waiting for review; decided edits and submissions keep their rows without the owner (set null),
 * and the audit log keeps what they did without their Discord name and id. Their public listings
 * stay, unclaimed. Their reviews and replies (#31) go too, with the averages of the listings they
 * reviewed; `pages` names those listings' pages, whose built HTML showed them.
 */
export async function deleteAccount(
  db: Db,
  ownerId: number,
  /**
   * The caller's writes for the batch given `pages` (their record for the rebuild), right after the
   * account's row: written only while `went` holds (it went in this batch).
   */
  alsoWrite?: (pages: string[], went: SQL) => BatchItem<'sqlite'>[],
): Promise<{ deleted: boolean; pages: string[] }> {
  const cleanup = await accountReviewCleanup(db, ownerId);
  const also = alsoWrite?.(cleanup.pages, sql`changes() > 0`) ?? [];
  const results = await db.batch([
    db.delete(listingEdits).where(and(eq(listingEdits.owner_id, ownerId), eq(listingEdits.status, 'pending'))),
    db
      .update(auditLog)
      .set({ operator_email: DELETED_OWNER })
      .where(
        and(
          isNull(auditLog.operator_id),
          like(auditLog.operator_email, 'owner %'),
          sql`json_extract(${auditLog.details}, '$.owner_id') = ${ownerId}`,
        ),
      ),
    ...cleanup.statements,
    db.delete(ownerUsers).where(eq(ownerUsers.id, ownerId)).returning({ id: ownerUsers.id }),
    ...also,
  ]);
  const gone = results[results.length - 1 - also.length] as { id: number }[];
  return { deleted: gone.length > 0, pages: cleanup.pages };
}
