// Member reviews (#31): reads and writes of reviews, owner replies, flags, membership proofs and
// the account's mail settings. A review change and the listing's average and count (`rating`,
// `review_count`), with any mail and audit row it causes, are one batch.
import { and, asc, count, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { QueryBuilder } from 'drizzle-orm/sqlite-core';
import type { ReviewStatus } from '../../src/lib/enums';
import { type ReviewsFrom, reviewKey } from '../../src/lib/reviews/cursor';
import {
  type RatingSummary,
  REVIEW_BURST_WINDOW_MS,
  REVIEWS_SHOWN_MIN,
  summarise,
} from '../../src/lib/reviews/summary';
import type { Db } from '../client';
import { isUniqueViolation } from '../errors';
import { readBuilt } from '../prepared';
import {
  accountSettings,
  auditLog,
  discordServers,
  ownerUsers,
  reviewFlags,
  reviewProofs,
  reviewReplies,
  reviews,
  serverClaims,
} from '../schema';
import { enqueueMail, enqueueMailWhen, type MailInput } from './mail';
import type { PageOptions } from './paginate';
import { groupedByParent } from './related';

const iso = (ms: number) => new Date(ms).toISOString();

/** An account's row for a listing: an account has at most one review and one membership proof per listing. */
const ofAccountFor = (table: typeof reviews | typeof reviewProofs, accountId: number, serverId: number) =>
  and(eq(table.account_id, accountId), eq(table.server_id, serverId));

/** The statement that brings a listing's `rating` (average of shown reviews, rounded down as averageOf, from REVIEWS_SHOWN_MIN) and `review_count` up to date. */
function refreshAggregate(db: Db, serverId: number | SQL, when: SQL = sql`1`) {
  const shown = sql`FROM ${reviews} WHERE ${reviews.server_id} = ${discordServers.id} AND ${reviews.status} = 'shown'`;
  return db
    .update(discordServers)
    .set({
      // The page's built HTML carries its first reviews: the next build rewrites it (cache keys read updated_at).
      updated_at: sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
      review_count: sql`(SELECT count(*) ${shown})`,
      // averageOf in SQL: whole-number division rounds down, as the page's summary does.
      rating: sql`CASE WHEN (SELECT count(*) ${shown}) >= ${REVIEWS_SHOWN_MIN} THEN ((SELECT sum(${reviews.rating}) * 10 ${shown}) / (SELECT count(*) ${shown})) / 10.0 ELSE 0 END`,
    })
    .where(sql`${discordServers.id} = ${serverId} AND ${when}`);
}

/** What Discord said of an account in a listing's guild at its review sign-in. */
export interface ReviewProof {
  member: boolean;
  role: 'owner' | 'manage_guild' | null;
  joined_at: string | null;
  checked_at: string;
}

/** Keeps what a review sign-in read of the account's membership in each listing of the guild. */
export async function saveReviewProofs(
  db: Db,
  accountId: number,
  guildId: string,
  proof: Omit<ReviewProof, 'checked_at'>,
  at: number,
): Promise<number[]> {
  const listings = await db
    .select({ id: discordServers.id })
    .from(discordServers)
    .where(eq(discordServers.guild_id, guildId));
  if (listings.length === 0) return [];
  const [first, ...rest] = listings.map((l) =>
    db
      .insert(reviewProofs)
      .values({ account_id: accountId, server_id: l.id, ...proof, checked_at: iso(at) })
      .onConflictDoUpdate({
        target: [reviewProofs.account_id, reviewProofs.server_id],
        set: { ...proof, checked_at: iso(at) },
      }),
  );
  await db.batch([first!, ...rest]);
  return listings.map((l) => l.id);
}

/** The membership proof of an account for a listing, or null. */
export async function getReviewProof(db: Db, accountId: number, serverId: number): Promise<ReviewProof | null> {
  const proof = await db
    .select({
      member: reviewProofs.member,
      role: reviewProofs.role,
      joined_at: reviewProofs.joined_at,
      checked_at: reviewProofs.checked_at,
    })
    .from(reviewProofs)
    .where(ofAccountFor(reviewProofs, accountId, serverId))
    .get();
  return proof ?? null;
}

/** A listing as the review routes need it: its page, guild and the accounts that claim it. */
export async function getReviewTarget(db: Db, serverId: number) {
  const [listing] = await db
    .select({
      id: discordServers.id,
      name: discordServers.name,
      slug: discordServers.slug,
      guild_id: discordServers.guild_id,
      is_active: discordServers.is_active,
    })
    .from(discordServers)
    .where(eq(discordServers.id, serverId));
  if (!listing) return null;
  const claims = await db
    .select({ owner_id: serverClaims.owner_id })
    .from(serverClaims)
    .where(eq(serverClaims.server_id, serverId));
  return { ...listing, ownerIds: claims.map((c) => c.owner_id) };
}

/** The listing of a slug (review sign-in starts from a page). */
export async function getReviewTargetBySlug(db: Db, slug: string) {
  const [row] = await db.select({ id: discordServers.id }).from(discordServers).where(eq(discordServers.slug, slug));
  return row ? getReviewTarget(db, row.id) : null;
}

/** A shown review as the public page shows it. */
export interface ShownPublicReview {
  id: number;
  rating: number;
  body: string;
  display_name: string;
  member_since: string;
  created_at: string;
  edited_at: string | null;
  status: 'shown';
  hidden_reason: null;
  reply: { body: string; created_at: string; edited_at: string | null } | null;
}

/**
 * A hidden review's public entry: the moderators' reason and its date, nothing the reviewer wrote
 * (the text, and the name it was shown as: a hide may be for what the name says) nor their membership.
 */
export interface HiddenPublicReview {
  id: number;
  rating: 0;
  body: null;
  display_name: null;
  member_since: null;
  created_at: string;
  edited_at: null;
  status: 'hidden';
  hidden_reason: string | null;
  reply: null;
}

/** One review as the public page shows it; a hidden one as its reason only. */
export type PublicReview = ShownPublicReview | HiddenPublicReview;

/** A page of a listing's reviews (newest first) with the summary of the shown ones. */
export interface ReviewPage {
  summary: RatingSummary;
  reviews: PublicReview[];
  /** Shown and hidden reviews on the public list (hidden ones say so), for paging. */
  total: number;
  /** The page asked for by number (the offset the API still takes), else 1. */
  page: number;
  pageSize: number;
  /** The place in the list of the page's first review (1 on the first page), when read. */
  from: number;
  /** The key (src/lib/reviews/cursor.ts) to page forward from (the first review's), or null on the first page. */
  newer: string | null;
  /** The key to page back from (the last review's), or null when no review is older. */
  older: string | null;
}

const publicColumns = {
  id: reviews.id,
  server_id: reviews.server_id,
  rating: reviews.rating,
  body: reviews.body,
  display_name: reviews.display_name,
  member_since: reviews.member_since,
  created_at: reviews.created_at,
  edited_at: reviews.edited_at,
  status: reviews.status,
  hidden_reason: reviews.hidden_reason,
  reply_body: reviewReplies.body,
  reply_created_at: reviewReplies.created_at,
  reply_edited_at: reviewReplies.edited_at,
};

type PublicRow = {
  id: number;
  server_id: number;
  rating: number;
  body: string;
  display_name: string;
  member_since: string;
  created_at: string;
  edited_at: string | null;
  status: ReviewStatus;
  hidden_reason: string | null;
  reply_body: string | null;
  reply_created_at: string | null;
  reply_edited_at: string | null;
};

const toPublic = (r: PublicRow): PublicReview =>
  r.status === 'hidden'
    ? {
        id: r.id,
        rating: 0,
        body: null,
        display_name: null,
        member_since: null,
        created_at: r.created_at,
        edited_at: null,
        status: 'hidden',
        hidden_reason: r.hidden_reason,
        reply: null,
      }
    : {
        id: r.id,
        rating: r.rating,
        body: r.body,
        display_name: r.display_name,
        member_since: r.member_since,
        created_at: r.created_at,
        edited_at: r.edited_at,
        status: 'shown',
        hidden_reason: null,
        reply:
          r.reply_body !== null
            ? { body: r.reply_body, created_at: r.reply_created_at!, edited_at: r.reply_edited_at }
            : null,
      };

/** The count of a listing's shown reviews by rating (reviewSummary's read; counted in reviews_server_status_rating_idx alone). */
export const ratingCountsRead = (db: Db, serverId: number) =>
  db
    .select({ rating: reviews.rating, n: sql<number>`count(*)` })
    .from(reviews)
    .where(and(eq(reviews.server_id, serverId), eq(reviews.status, 'shown')))
    .groupBy(reviews.rating);

/** The ratings of a listing's shown reviews, summed (count, average, distribution). */
export async function reviewSummary(db: Db, serverId: number): Promise<RatingSummary> {
  const rows = await ratingCountsRead(db, serverId);
  return summarise(rows.flatMap((r) => Array<number>(Number(r.n)).fill(r.rating)));
}

/** A listing's public reviews: shown ones, and hidden ones with their reason. */
const publicOf = (serverId: number) =>
  and(eq(reviews.server_id, serverId), inArray(reviews.status, ['shown', 'hidden']))!;

/**
 * The read of one page of a listing's public reviews (listPublicReviews), in the order of
 * reviews_server_order_idx, stopped after the page: no sort of all the listing's reviews.
 */
export function publicReviewsRead(db: Db, serverId: number, at: ReviewsAt, pageSize: number) {
  const where = publicOf(serverId);
  const place = sql`(${reviews.created_at}, ${reviews.id})`;
  const base = () =>
    db.select(publicColumns).from(reviews).leftJoin(reviewReplies, eq(reviewReplies.review_id, reviews.id));
  if ('before' in at)
    return base()
      .where(and(where, sql`${place} < (${at.before.createdAt}, ${at.before.id})`))
      .orderBy(desc(reviews.created_at), desc(reviews.id))
      .limit(pageSize);
  if ('after' in at)
    return base()
      .where(and(where, sql`${place} > (${at.after.createdAt}, ${at.after.id})`))
      .orderBy(asc(reviews.created_at), asc(reviews.id))
      .limit(pageSize);
  return base()
    .where(where)
    .orderBy(desc(reviews.created_at), desc(reviews.id))
    .limit(pageSize)
    .offset((at.page - 1) * pageSize);
}

/** Where a page of reviews starts: a page number (an offset, as the API once paged only), or a key (reviewsFrom). */
export type ReviewsAt = { page: number } | ReviewsFrom;

/**
 * A page of a listing's public reviews, newest first: shown ones, and hidden ones with their
 * reason. By key (`before`/`after` a review's (created_at, id)), so a page is the same reviews
 * whatever was written since; by number for the first page and the old `?page=`. A key with nothing
 * past it (its reviews gone, or none newer) gives the first page.
 */
export async function listPublicReviews(
  db: Db,
  serverId: number,
  at: ReviewsAt,
  pageSize: number,
): Promise<ReviewPage> {
  const where = publicOf(serverId);
  const place = sql`(${reviews.created_at}, ${reviews.id})`;
  const page = 'page' in at ? at.page : 1;
  const read = publicReviewsRead(db, serverId, at, pageSize);
  // Where the page is (the reviews newer than its first one) is read with the total, beside the
  // page, not after it: before a key, the reviews at or after the key (none lies between the key
  // and the page's first); after a key, those after it, less the page's own. By number, it is the
  // offset. (It was a count of its own once the page was read: one more round trip a page.)
  const past =
    'before' in at
      ? sql`${place} >= (${at.before.createdAt}, ${at.before.id})`
      : 'after' in at
        ? sql`${place} > (${at.after.createdAt}, ${at.after.id})`
        : sql`0`;
  const [rows, [count], summary] = await Promise.all([
    read,
    db
      .select({ n: sql<number>`count(*)`, past: sql<number>`coalesce(sum(${past}), 0)` })
      .from(reviews)
      .where(where),
    reviewSummary(db, serverId),
  ]);
  if (rows.length === 0 && !('page' in at)) return listPublicReviews(db, serverId, { page: 1 }, pageSize);
  if ('after' in at) rows.reverse();
  const total = Number(count?.n ?? 0);
  const first = rows[0];
  const last = rows.at(-1);
  const newerThanKey = Number(count?.past ?? 0);
  const before = !first
    ? 0
    : 'before' in at
      ? newerThanKey
      : 'after' in at
        ? newerThanKey - rows.length
        : (page - 1) * pageSize;
  return {
    summary,
    reviews: rows.map(toPublic),
    total,
    page,
    pageSize,
    from: before + 1,
    newer: first && before > 0 ? reviewKey(first) : null,
    older: last && total - before - rows.length > 0 ? reviewKey(last) : null,
  };
}

/**
 * The first page of public reviews and the summary of each listing in `serverIds` (the build's one
 * read for its prerendered server pages), by server id; a listing with no review is absent.
 */
export async function firstReviewPages(db: Db, serverIds: readonly number[], pageSize: number) {
  const out = new Map<number, ReviewPage>();
  const any = await db
    .select({ id: reviews.server_id })
    .from(reviews)
    .where(inArray(reviews.status, ['shown', 'hidden']))
    .groupBy(reviews.server_id);
  const wanted = new Set(serverIds);
  for (const { id } of any) if (wanted.has(id)) out.set(id, await listPublicReviews(db, id, { page: 1 }, pageSize));
  return out;
}

/** The account's own review of a listing (any status), or null. */
export async function getOwnReview(db: Db, accountId: number, serverId: number) {
  return (
    (await db
      .select()
      .from(reviews)
      .where(ofAccountFor(reviews, accountId, serverId))
      .get()) ?? null
  );
}

/** The listing a review is about, as a link names it (joined on reviews.server_id). */
const listingOfReview = { server_name: discordServers.name, server_slug: discordServers.slug };

/** A review by id, with its listing's name and slug. */
export async function getReview(db: Db, id: number) {
  const [row] = await db
    .select({
      review: reviews,
      ...listingOfReview,
      reply_account_id: reviewReplies.account_id,
    })
    .from(reviews)
    .innerJoin(discordServers, eq(discordServers.id, reviews.server_id))
    .leftJoin(reviewReplies, eq(reviewReplies.review_id, reviews.id))
    .where(eq(reviews.id, id));
  return row ?? null;
}

/** The mail address of an account (account_settings), and whether it wants new-review mails. */
export async function getAccountSettings(db: Db, accountId: number) {
  const [row] = await db.select().from(accountSettings).where(eq(accountSettings.account_id, accountId));
  return { email: row?.email ?? null, mail_new_reviews: row?.mail_new_reviews ?? true };
}

/** Saves an account's mail settings (unset fields keep their value). */
export async function saveAccountSettings(
  db: Db,
  accountId: number,
  input: { email?: string | null | undefined; mail_new_reviews?: boolean | undefined },
) {
  const set: { email?: string | null; mail_new_reviews?: boolean } = {};
  if (input.email !== undefined) set.email = input.email || null;
  if (input.mail_new_reviews !== undefined) set.mail_new_reviews = input.mail_new_reviews;
  await db
    .insert(accountSettings)
    .values({ account_id: accountId, ...set })
    .onConflictDoUpdate({
      target: accountSettings.account_id,
      set: Object.keys(set).length ? set : { account_id: accountId },
    });
  return getAccountSettings(db, accountId);
}

/** The addresses the owners of a listing gave that want new-review mails. */
export async function ownerMailsOf(db: Db, serverId: number): Promise<{ accountId: number; email: string }[]> {
  const rows = await db
    .select({ accountId: serverClaims.owner_id, email: accountSettings.email })
    .from(serverClaims)
    .innerJoin(accountSettings, eq(accountSettings.account_id, serverClaims.owner_id))
    .where(and(eq(serverClaims.server_id, serverId), eq(accountSettings.mail_new_reviews, true)));
  return rows.filter((r): r is { accountId: number; email: string } => !!r.email);
}

/** What saveReview did: wrote a new review (shown or held) or edited the account's earlier one. */
export interface SavedReview {
  id: number;
  status: ReviewStatus;
  /** Why a held review is held: 'burst', or 'after_hide' (its author deleted a review moderators had hid). */
  heldReason: string | null;
  created: boolean;
}

/**
 * What saveReview did, or why it wrote nothing: `exists`, a new review while the account already
 * has one of the listing (two sent at once: the other was stored first); `gone`, an edit of a review
 * deleted meanwhile.
 */
export type SaveReviewResult = { ok: true; saved: SavedReview } | { ok: false; reason: 'exists' | 'gone' };

/** The audit action of an author deleting their own review while moderators had it hidden. */
export const HIDDEN_REVIEW_DELETED = 'review_delete_hidden';

/**
 * Whether the account deleted a review of the listing that moderators had hidden (its audit row,
 * written in the delete's batch): its next review of the listing is held for a moderator, so a
 * delete cannot undo a hide.
 */
const deletedWhileHidden = (accountId: number, serverId: number) =>
  sql`EXISTS (SELECT 1 FROM ${auditLog} WHERE ${auditLog.action} = ${HIDDEN_REVIEW_DELETED} AND ${auditLog.entity} = 'review'
    AND json_extract(${auditLog.details}, '$.server_id') = ${serverId} AND json_extract(${auditLog.details}, '$.account_id') = ${accountId})`;

/**
 * Writes an account's review of a listing as the caller found it (`existingId`: the account's
 * review it read and checked, or null for a new one). A new one is held when the burst rule says so
 * (counted in the same statement, so two at once cannot both slip under the limit) or when the
 * account deleted an earlier review of the listing while it was hidden; an edit keeps the review's
 * status (an edit of a held or hidden review stays so). The listing's average and count, and the
 * owners' mails (only for a new review that shows; `mails` are built by the caller), are in the
 * same batch. When the account's review is not as the caller found it (a new one while another was
 * stored first: two sent at once; an edit of one deleted meanwhile) nothing is written and the
 * result says why: the second of two at once was once dropped while its author was told "published".
 */
export async function saveReview(
  db: Db,
  input: {
    serverId: number;
    accountId: number;
    existingId: number | null;
    rating: number;
    body: string;
    displayName: string;
    memberSince: string;
    at: number;
    burstLimit: number;
    mails: Omit<MailInput, 'dedupeKey'>[];
  },
  /** An edit's record for the rebuild (site_changes rows), in its batch; written only when `edited` (SQL) holds. */
  editPublish?: (edited: SQL) => BatchItem<'sqlite'>[],
): Promise<SaveReviewResult> {
  if (input.existingId !== null) {
    const edits = sql`EXISTS (SELECT 1 FROM ${reviews} WHERE ${reviews.id} = ${input.existingId} AND ${reviews.account_id} = ${input.accountId})`;
    const [edited] = await db.batch([
      db
        .update(reviews)
        .set({
          rating: input.rating,
          body: input.body,
          display_name: input.displayName,
          member_since: input.memberSince,
          edited_at: iso(input.at),
        })
        .where(and(eq(reviews.id, input.existingId), eq(reviews.account_id, input.accountId)))
        .returning({ id: reviews.id, status: reviews.status, held_reason: reviews.held_reason }),
      refreshAggregate(db, input.serverId, sql`changes() = 1`),
      // The review is there (this batch holds its write lock): the UPDATE above edited it.
      ...(editPublish?.(edits) ?? []),
    ]);
    const row = edited[0];
    if (!row) return { ok: false, reason: 'gone' };
    return { ok: true, saved: { id: row.id, status: row.status, heldReason: row.held_reason, created: false } };
  }
  const since = iso(input.at - REVIEW_BURST_WINDOW_MS);
  const recent = sql`(SELECT count(*) FROM ${reviews} WHERE ${reviews.server_id} = ${input.serverId} AND ${reviews.created_at} > ${since})`;
  const mine = sql`(SELECT ${reviews.id} FROM ${reviews} WHERE ${reviews.server_id} = ${input.serverId} AND ${reviews.account_id} = ${input.accountId})`;
  const afterHide = deletedWhileHidden(input.accountId, input.serverId);
  const shows = sql`(SELECT ${reviews.status} FROM ${reviews} WHERE ${reviews.server_id} = ${input.serverId} AND ${reviews.account_id} = ${input.accountId}) = 'shown'`;
  try {
    // No ON CONFLICT: a review of the account stored meanwhile fails the insert, and the batch
    // (the average, the mails) with it.
    const [inserted] = await db.batch([
      db
        .insert(reviews)
        .values({
          server_id: input.serverId,
          account_id: input.accountId,
          rating: input.rating,
          body: input.body,
          display_name: input.displayName,
          member_since: input.memberSince,
          created_at: iso(input.at),
          // After a hidden review its author deleted, held; else holdsForBurst(recent, limit), in SQL:
          // past the limit in 24 hours, held.
          status: sql`CASE WHEN ${afterHide} OR ${recent} + 1 > ${input.burstLimit} THEN 'held' ELSE 'shown' END`,
          held_reason: sql`CASE WHEN ${afterHide} THEN 'after_hide' WHEN ${recent} + 1 > ${input.burstLimit} THEN 'burst' ELSE NULL END`,
        })
        .returning({ id: reviews.id, status: reviews.status, held_reason: reviews.held_reason }),
      refreshAggregate(db, input.serverId),
      ...input.mails.map((m) =>
        enqueueMailWhen(db, { ...m, dedupeKey: sql`'review-new:' || ${mine} || ':' || ${m.to}` }, shows),
      ),
    ]);
    const row = inserted[0]!;
    return { ok: true, saved: { id: row.id, status: row.status, heldReason: row.held_reason, created: true } };
  } catch (err) {
    if (isUniqueViolation(err)) return { ok: false, reason: 'exists' };
    throw err;
  }
}

/**
 * Deletes an account's own review (and its reply and flags), with the listing's average and count.
 * A review moderators had hidden leaves an audit row in the same batch (HIDDEN_REVIEW_DELETED), by
 * which the account's next review of the listing is held for a moderator.
 */
export async function deleteOwnReview(
  db: Db,
  accountId: number,
  reviewId: number,
  /** The record of the change for the rebuild (site_changes rows), in the deletion's batch. */
  publish: BatchItem<'sqlite'>[] = [],
): Promise<boolean> {
  const [row] = await db
    .select({ server_id: reviews.server_id, status: reviews.status, hidden_reason: reviews.hidden_reason })
    .from(reviews)
    .where(and(eq(reviews.id, reviewId), eq(reviews.account_id, accountId)));
  if (!row) return false;
  const hidden =
    row.status === 'hidden'
      ? [
          db.insert(auditLog).values({
            operator_id: null,
            operator_email: 'author (own review)',
            action: HIDDEN_REVIEW_DELETED,
            entity: 'review',
            entity_id: String(reviewId),
            details: { server_id: row.server_id, account_id: accountId, hidden_reason: row.hidden_reason },
          }),
        ]
      : [];
  await db.batch([
    db.delete(reviews).where(eq(reviews.id, reviewId)),
    refreshAggregate(db, row.server_id),
    ...hidden,
    ...publish,
  ]);
  return true;
}

/** Writes or edits the owner's one reply to a review; a new reply's mail to the reviewer is in the same batch. */
export async function saveReply(
  db: Db,
  input: { reviewId: number; accountId: number; body: string; at: number; mail: Omit<MailInput, 'dedupeKey'> | null },
  /**
   * An edit's record for the rebuild (site_changes rows), in the edit's batch, written only while
   * `edited` holds (the UPDATE changed the reply); a new reply asks for none (as before).
   */
  editPublish: (edited: SQL) => BatchItem<'sqlite'>[] = () => [],
): Promise<{ created: boolean }> {
  const [existing] = await db
    .select({ id: reviewReplies.review_id })
    .from(reviewReplies)
    .where(eq(reviewReplies.review_id, input.reviewId));
  if (existing) {
    await db.batch([
      db
        .update(reviewReplies)
        .set({ body: input.body, account_id: input.accountId, edited_at: iso(input.at) })
        .where(eq(reviewReplies.review_id, input.reviewId)),
      ...editPublish(sql`changes() > 0`),
    ]);
    return { created: false };
  }
  const insert = db
    .insert(reviewReplies)
    .values({ review_id: input.reviewId, account_id: input.accountId, body: input.body, created_at: iso(input.at) })
    .onConflictDoNothing();
  if (input.mail)
    await db.batch([
      insert,
      enqueueMail(db, { ...input.mail, dedupeKey: `review-reply:${input.reviewId}:${input.at}` }),
    ]);
  else await insert;
  return { created: true };
}

/**
 * Deletes the reply to a review, with the record of the change for the rebuild (`publish`, given
 * `removed`: SQL that holds right after a DELETE that removed it) in the same batch.
 */
export async function deleteReply(
  db: Db,
  reviewId: number,
  publish: (removed: SQL) => BatchItem<'sqlite'>[] = () => [],
): Promise<boolean> {
  const [{ rowsAffected }] = await db.batch([
    db.delete(reviewReplies).where(eq(reviewReplies.review_id, reviewId)),
    ...publish(sql`changes() > 0`),
  ]);
  return rowsAffected > 0;
}

/** Records an account's flag on a review (a second flag by the same account replaces its reason). */
export async function flagReview(
  db: Db,
  input: { reviewId: number; accountId: number; reason: string; details: string | null; at: number },
): Promise<void> {
  await db
    .insert(reviewFlags)
    .values({
      review_id: input.reviewId,
      account_id: input.accountId,
      reason: input.reason,
      details: input.details,
      created_at: iso(input.at),
    })
    .onConflictDoUpdate({
      target: [reviewFlags.review_id, reviewFlags.account_id],
      set: { reason: input.reason, details: input.details, created_at: iso(input.at), resolved_at: null },
    });
}

/** The columns of a review shown with its listing (the console's Reviews screen, /account's "My reviews"). */
const reviewWithListing = () => ({
  id: reviews.id,
  server_id: reviews.server_id,
  ...listingOfReview,
  rating: reviews.rating,
  body: reviews.body,
  display_name: reviews.display_name,
  status: reviews.status,
  hidden_reason: reviews.hidden_reason,
});

/**
 * One page of the console's Reviews screen: held, flagged (open flags) or hidden reviews, newest
 * first, with reasons, and how many the view holds in all (every one a page away).
 */
export async function listReviewsForModeration(
  db: Db,
  view: 'held' | 'flagged' | 'hidden',
  { page = 1, perPage = 25 }: Pick<PageOptions, 'page' | 'perPage'> = {},
) {
  const openFlags = sql<number>`(SELECT count(*) FROM ${reviewFlags} WHERE ${reviewFlags.review_id} = ${reviews.id} AND ${reviewFlags.resolved_at} IS NULL)`;
  const where = view === 'flagged' ? sql`${openFlags} > 0` : eq(reviews.status, view === 'held' ? 'held' : 'hidden');
  const [counted] = await db.select({ n: count() }).from(reviews).where(where);
  const rows = await db
    .select({
      ...reviewWithListing(),
      held_reason: reviews.held_reason,
      created_at: reviews.created_at,
      moderated_by: reviews.moderated_by,
      moderated_at: reviews.moderated_at,
      open_flags: openFlags,
    })
    .from(reviews)
    .innerJoin(discordServers, eq(discordServers.id, reviews.server_id))
    .where(where)
    .orderBy(desc(reviews.created_at), desc(reviews.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
  const flags = await groupedByParent(
    rows.map((r) => r.id),
    (ids) =>
      db
        .select({
          review_id: reviewFlags.review_id,
          reason: reviewFlags.reason,
          details: reviewFlags.details,
          created_at: reviewFlags.created_at,
          resolved_at: reviewFlags.resolved_at,
        })
        .from(reviewFlags)
        .where(inArray(reviewFlags.review_id, ids)),
    (f) => f.review_id,
  );
  return {
    reviews: rows.map((r) => ({ ...r, open_flags: Number(r.open_flags), flags: flags.get(r.id) ?? [] })),
    total: Number(counted?.n ?? 0),
  };
}

/** Who moderates: the operator's id and e-mail, written to the review and the audit log. */
export interface Moderator {
  id: number;
  email: string;
}

/**
 * A moderator's action on a review, with its audit row, the listing's average and count, and
 * (for a hide) the reviewer's mail, in one batch: `hide` with a public reason (its open flags are
 * resolved), `show` (a held review released, or a hidden one shown again), `dismiss_flags`.
 */
export async function moderateReview(
  db: Db,
  input: {
    reviewId: number;
    serverId: number;
    moderator: Moderator;
    action: 'hide' | 'show' | 'dismiss_flags';
    reason?: string | undefined;
    at: number;
    mail: Omit<MailInput, 'dedupeKey'> | null;
    ownerMails?: Omit<MailInput, 'dedupeKey'>[] | undefined;
    /** The record of the change for the public pages, right after the audit row (built with `when` AUDITED). */
    publish?: BatchItem<'sqlite'>[] | undefined;
  },
): Promise<void> {
  const at = iso(input.at);
  const audit = db.insert(auditLog).values({
    operator_id: input.moderator.id,
    operator_email: input.moderator.email,
    action: `review_${input.action}`,
    entity: 'review',
    entity_id: String(input.reviewId),
    details: { server_id: input.serverId, ...(input.reason ? { reason: input.reason } : {}) },
  });
  const resolveFlags = db
    .update(reviewFlags)
    .set({ resolved_at: at })
    .where(and(eq(reviewFlags.review_id, input.reviewId), isNull(reviewFlags.resolved_at)));
  if (input.action === 'dismiss_flags') {
    await db.batch([resolveFlags, audit]);
    return;
  }
  const update = db
    .update(reviews)
    .set(
      input.action === 'hide'
        ? {
            status: 'hidden',
            hidden_reason: input.reason ?? null,
            moderated_by: input.moderator.email,
            moderated_at: at,
          }
        : {
            status: 'shown',
            hidden_reason: null,
            held_reason: null,
            moderated_by: input.moderator.email,
            moderated_at: at,
          },
    )
    .where(eq(reviews.id, input.reviewId));
  const mails = [
    ...(input.mail
      ? [enqueueMail(db, { ...input.mail, dedupeKey: `review-${input.action}:${input.reviewId}:${at}` })]
      : []),
    ...(input.ownerMails ?? []).map((m) =>
      enqueueMail(db, { ...m, dedupeKey: `review-new:${input.reviewId}:${m.to}` }),
    ),
  ];
  await db.batch([
    update,
    refreshAggregate(db, input.serverId),
    audit,
    ...(input.publish ?? []),
    ...(input.action === 'hide' ? [resolveFlags] : []),
    ...mails,
  ]);
}

/** The account's reviews (any status) with their listings and replies, newest first (/account "My reviews"). */
export async function listAccountReviews(db: Db, accountId: number) {
  return db
    .select({
      ...reviewWithListing(),
      created_at: reviews.created_at,
      edited_at: reviews.edited_at,
      reply: reviewReplies.body,
    })
    .from(reviews)
    .innerJoin(discordServers, eq(discordServers.id, reviews.server_id))
    .leftJoin(reviewReplies, eq(reviewReplies.review_id, reviews.id))
    .where(eq(reviews.account_id, accountId))
    .orderBy(desc(reviews.created_at));
}

/** The replies the account wrote, with the review and listing they answer (/account). */
export async function listAccountReplies(db: Db, accountId: number) {
  return db
    .select({
      review_id: reviewReplies.review_id,
      body: reviewReplies.body,
      created_at: reviewReplies.created_at,
      edited_at: reviewReplies.edited_at,
      reviewer: reviews.display_name,
      ...listingOfReview,
    })
    .from(reviewReplies)
    .innerJoin(reviews, eq(reviews.id, reviewReplies.review_id))
    .innerJoin(discordServers, eq(discordServers.id, reviews.server_id))
    .where(eq(reviewReplies.account_id, accountId))
    .orderBy(desc(reviewReplies.created_at));
}

/** The reviews of the listings an owner claims, newest first, with any reply (for replying from /account). */
export async function listReviewsOfOwnedListings(db: Db, accountId: number, limit = 50) {
  const rows = await db
    .select(publicColumns)
    .from(reviews)
    .innerJoin(serverClaims, and(eq(serverClaims.server_id, reviews.server_id), eq(serverClaims.owner_id, accountId)))
    .leftJoin(reviewReplies, eq(reviewReplies.review_id, reviews.id))
    .where(eq(reviews.status, 'shown'))
    .orderBy(desc(reviews.created_at))
    .limit(limit);
  const names = rows.length
    ? await db
        .select({ id: discordServers.id, name: discordServers.name, slug: discordServers.slug })
        .from(discordServers)
        .where(inArray(discordServers.id, [...new Set(rows.map((r) => r.server_id))]))
    : [];
  return rows.map((r) => ({ ...toPublic(r), server: names.find((n) => n.id === r.server_id)! }));
}

/**
 * The statements account deletion adds to its batch, before the account's row goes: the
 * averages and counts of the listings it reviewed, as if its reviews were gone (they go with the
 * account by cascade), and the slugs of those pages.
 */
export async function accountReviewCleanup(db: Db, accountId: number) {
  const listed = await db
    .select({ server_id: reviews.server_id, slug: discordServers.slug })
    .from(reviews)
    .innerJoin(discordServers, eq(discordServers.id, reviews.server_id))
    .where(eq(reviews.account_id, accountId));
  return {
    statements: [
      db.delete(reviews).where(eq(reviews.account_id, accountId)),
      db.delete(reviewReplies).where(eq(reviewReplies.account_id, accountId)),
      ...listed.map((l) => refreshAggregate(db, l.server_id)),
    ],
    pages: listed.map((l) => `/server/${l.slug}`),
  };
}

/** The account's Discord name (global name, else username) for a review's default display name. */
export async function accountName(db: Db, accountId: number): Promise<string> {
  const [row] = await db
    .select({ global_name: ownerUsers.global_name, username: ownerUsers.username })
    .from(ownerUsers)
    .where(eq(ownerUsers.id, accountId));
  return row?.global_name || row?.username || 'Member';
}

/**
 * Whether a listing has any public review (shown or hidden): one index read, so a page rendered on
 * request (src/data/server-page.ts) reads the page and summary of reviews only for a listing that has them.
 */
export async function hasPublicReviews(db: Db, serverId: number): Promise<boolean> {
  const [row] = await readBuilt(db, ANY_PUBLIC_REVIEW, { id: serverId });
  return row !== undefined;
}

/** hasPublicReviews's read, built once (every page rendered on request makes it). */
const ANY_PUBLIC_REVIEW = new QueryBuilder()
  .select({ id: reviews.id })
  .from(reviews)
  .where(and(eq(reviews.server_id, sql.placeholder('id')), inArray(reviews.status, ['shown', 'hidden'])))
  .limit(1)
  .toSQL();
