import { and, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { SubmissionStatus } from '../../src/lib/enums';
import { SCHEDULE } from '../../src/lib/invite-checks/state';
import { featureLines } from '../../src/lib/schemas/submission';
import { serverSlug } from '../../src/lib/slug';
import type { Db } from '../client';
import { isUniqueViolation } from '../errors';
import {
  discordServers,
  jobState,
  ownerUsers,
  type ServerRow,
  type SubmissionRow,
  serverClaims,
  serverSnapshots,
  serverSubmissions,
} from '../schema';
import { type AuditAuthor, type AuditWrite, auditRowWhen, withAudit } from './audit';
import { enqueueMailWhen, type MailInput } from './mail';
import { lastSignInProof, OWNER_SUBMIT_ACTION } from './owners';
import { type PageOptions, pageNewestFirst } from './paginate';
import { uniqueSlug } from './servers';

/** A stored submission. */
export type SubmissionRecord = SubmissionRow;

/** The fields an owner sends; status, notes and timestamps are the server's. */
export type SubmissionWrite = Pick<
  typeof serverSubmissions.$inferInsert,
  | 'server_name'
  | 'server_description'
  | 'category'
  | 'subcategory'
  | 'language'
  | 'region'
  | 'invite_link'
  | 'server_image'
  | 'contact_email'
  | 'features'
  | 'member_count'
  | 'active_users'
  | 'submitter_name'
  | 'is_owner'
  | 'guild_id'
  | 'guild_icon'
  | 'invite_code'
  | 'owner_id'
  | 'owner_verified'
  | 'owner_proof'
  | 'owner_proven_at'
>;

/** Submissions still waiting for a decision: their guild cannot be submitted again meanwhile. */
const OPEN_STATUSES = ['pending', 'under_review'] as const satisfies SubmissionStatus[];

/** Where a guild already is: a listing, a submission waiting for review, or nowhere (null). */
export type GuildTaken = 'listed' | 'pending' | null;

/** Whether Discord's guild `guildId` is already listed or waiting for review. */
export async function guildTaken(db: Db, guildId: string): Promise<GuildTaken> {
  const [listed] = await db
    .select({ id: discordServers.id })
    .from(discordServers)
    .where(eq(discordServers.guild_id, guildId))
    .limit(1);
  if (listed) return 'listed';
  const [open] = await db
    .select({ id: serverSubmissions.id })
    .from(serverSubmissions)
    .where(and(eq(serverSubmissions.guild_id, guildId), inArray(serverSubmissions.status, OPEN_STATUSES)))
    .limit(1);
  return open ? 'pending' : null;
}

/** Filter and page of listSubmissions. */
export interface SubmissionListOptions extends PageOptions {
  status?: SubmissionStatus | undefined;
}

/** Counts of all submissions and of each status. */
export interface SubmissionStats {
  total: number;
  pending: number;
  under_review: number;
  approved: number;
  rejected: number;
}

/** Stores a submission as pending and returns the row. */
export async function insertSubmission(db: Db, input: SubmissionWrite): Promise<SubmissionRecord> {
  const [row] = await db
    .insert(serverSubmissions)
    .values({ ...input, status: 'pending' })
    .returning();
  return row!;
}

/**
 * Stores a checked submission (its guild id from Discord) as pending unless the guild is already
 * listed or waiting for review: one INSERT … SELECT … WHERE NOT EXISTS, so of two submissions of
 * one guild at once only one is stored. The row, or where the guild already is.
 */
export async function insertCheckedSubmission(
  db: Db,
  input: SubmissionWrite & { guild_id: string },
  /** The "received" mail to the contact address (#16), written only with the row, keyed by its id. */
  received?: SubmissionMail,
  /** A signed-in owner's submission (#17): its audit row, written only with the row. */
  audit?: { author: AuditAuthor; details: Record<string, unknown> },
): Promise<{ ok: true; submission: SubmissionRecord } | { ok: false; taken: Exclude<GuildTaken, null> }> {
  const open = sql.join(
    OPEN_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  );
  const insert = db.all<{ id: number }>(sql`INSERT INTO ${serverSubmissions}
  (server_name, server_description, category, subcategory, invite_link, server_image, contact_email, features,
   member_count, active_users, submitter_name, is_owner, status, guild_id, guild_icon, invite_code,
   owner_id, owner_verified, owner_proof, owner_proven_at, language, region)
SELECT ${input.server_name}, ${input.server_description}, ${input.category}, ${input.subcategory ?? null},
  ${input.invite_link}, ${input.server_image}, ${input.contact_email}, ${input.features ?? null},
  ${input.member_count ?? 0}, ${input.active_users ?? 0}, ${input.submitter_name}, ${input.is_owner === false ? 0 : 1},
  'pending', ${input.guild_id}, ${input.guild_icon ?? null}, ${input.invite_code ?? null},
  ${input.owner_id ?? null}, ${input.owner_verified ? 1 : 0}, ${input.owner_proof ?? null}, ${input.owner_proven_at ?? null},
  ${input.language ?? null},
  ${input.region ?? null}
WHERE NOT EXISTS (SELECT 1 FROM ${discordServers} WHERE guild_id = ${input.guild_id})
  AND NOT EXISTS (SELECT 1 FROM ${serverSubmissions} WHERE guild_id = ${input.guild_id} AND status IN (${open}))
RETURNING id`);
  // The mail in the same batch, right after the guarded INSERT: written only when it made the row.
  const mail = received
    ? [
        enqueueMailWhen(
          db,
          {
            ...received,
            kind: 'submission_received',
            to: input.contact_email,
            dedupeKey: sql`'submission-received:' || last_insert_rowid()`,
          },
          sql`changes() = 1`,
        ),
      ]
    : [];
  // Last: changes() is the mail's (written only with the row) or the INSERT's, so 1 only when the
  // row was made; inside the batch's transaction the newest submission is this one.
  const audited = audit
    ? [
        auditRowWhen(
          db,
          audit.author,
          {
            action: OWNER_SUBMIT_ACTION,
            entity: 'submission',
            entityId: sql`(SELECT max(id) FROM ${serverSubmissions})`,
            details: audit.details,
          },
          sql`changes() = 1`,
        ),
      ]
    : [];
  const [rows] = await db.batch([insert, ...mail, ...audited]);
  const id = rows[0]?.id;
  if (id === undefined) return { ok: false, taken: (await guildTaken(db, input.guild_id)) ?? 'pending' };
  return { ok: true, submission: (await getSubmissionById(db, Number(id)))! };
}

/**
 * Spends one Discord lookup of the budget counted in job_state row `name` (the submit's checks, the
 * form's live checks): at most `perWindow` in a window that closes
 * `windowMs` after its last lookup (the refresh job's rule, budgetAt), so every address together
 * cannot spend the site's standing with Discord. One conditional UPDATE: of two checks racing for
 * the last lookup, one gets it. When spent, how long until the window closes.
 */
export async function spendSubmissionLookup(
  db: Db,
  name: string,
  now: number,
  { perWindow, windowMs }: { perWindow: number; windowMs: number },
): Promise<{ ok: true } | { ok: false; retryAfterMs: number }> {
  await db.insert(jobState).values({ name }).onConflictDoNothing();
  const at = new Date(now).toISOString();
  const closed = sql`(${jobState.window_start} = '' OR ${jobState.window_start} <= ${new Date(now - windowMs).toISOString()})`;
  const result = await db
    .update(jobState)
    .set({
      window_count: sql`CASE WHEN ${closed} THEN 1 ELSE ${jobState.window_count} + 1 END`,
      window_start: at,
    })
    .where(and(eq(jobState.name, name), sql`(${closed} OR ${jobState.window_count} < ${perWindow})`));
  if (result.rowsAffected === 1) return { ok: true };
  const [state] = await db.select().from(jobState).where(eq(jobState.name, name));
  return { ok: false, retryAfterMs: Math.max(1000, Date.parse(state?.window_start ?? at) + windowMs - now) };
}

/** Submissions newest first (or oldest first), optionally of one status, one page of them, with the total. */
export async function listSubmissions(
  db: Db,
  options: SubmissionListOptions = {},
): Promise<{ submissions: SubmissionRecord[]; total: number }> {
  const where = options.status ? eq(serverSubmissions.status, options.status) : undefined;
  const { rows, total } = await pageNewestFirst(db, serverSubmissions, where, options);
  return { submissions: rows, total };
}

/** One submission by id, or null. */
export async function getSubmissionById(db: Db, id: number): Promise<SubmissionRecord | null> {
  const [row] = await db.select().from(serverSubmissions).where(eq(serverSubmissions.id, id)).limit(1);
  return row ?? null;
}

/** Sets a submission's status (and admin_notes when given). Returns the row or null. */
export async function updateSubmissionStatus(
  db: Db,
  id: number,
  status: SubmissionStatus,
  adminNotes?: string | null,
  audit?: AuditWrite,
): Promise<SubmissionRecord | null> {
  const [row] = await withAudit(
    db,
    db
      .update(serverSubmissions)
      .set({
        status,
        ...(adminNotes !== undefined ? { admin_notes: adminNotes } : {}),
        updated_at: new Date().toISOString(),
      })
      .where(eq(serverSubmissions.id, id))
      .returning(),
    audit,
  );
  return row ?? null;
}

/** A submitter's mail before its key and address (#16): what the caller renders for the query to write. */
export type SubmissionMail = Omit<MailInput, 'dedupeKey' | 'to' | 'kind'>;

/** What approveSubmission did: the new listing, or why nothing happened. */
export type ApproveResult =
  | { ok: true; submission: SubmissionRecord; server: ServerRow }
  | { ok: false; reason: 'not_found' | 'already_approved' }
  /** Another listing already has the submission's Discord guild. */
  | { ok: false; reason: 'guild_listed'; server: ServerRow };

/**
 * The freshness of a listing made from a checked submission: Discord answered ok when it was
 * submitted (its created_at), so the listing starts as checked then, and the refresh job looks
 * again a day after that check (at once when the review took longer). A submission from before
 * the check (no guild id) starts unchecked and due now.
 */
function freshnessFrom(submission: SubmissionRecord) {
  if (!submission.guild_id) return { status: 'unchecked', checkedAt: null, nextCheckAt: '' } as const;
  const checkedAt = submission.created_at;
  const nextCheckAt = new Date(Date.parse(checkedAt) + SCHEDULE.okMs).toISOString();
  return { status: 'ok', checkedAt, nextCheckAt } as const;
}

/**
 * The INSERT of the listing an approval makes from a submission (rating 0, not premium or sponsored, no cons or tags, sort_order 0, active, pros from the feature lines, the invite as the join link), guarded so it only
 * happens while the submission is not yet approved (a second approval inserts nothing). Discord's
 * guild id, icon, invite code and counts come with it (#15).
 */
function insertListingFrom(db: Db, submission: SubmissionRecord, slug: string) {
  const fresh = freshnessFrom(submission);
  return db.run(sql`INSERT INTO ${discordServers}
  (name, description, category, subcategory, slug, members, active_users, rating, image_url, pros, cons,
   is_premium, is_sponsored, affiliate_link, tags, features, sort_order, is_active,
   guild_id, guild_icon, invite_code, invite_status, last_checked_at, last_ok_at, next_check_at, language, region)
SELECT ${submission.server_name}, ${submission.server_description}, ${submission.category}, ${submission.subcategory}, ${slug},
  ${submission.member_count}, ${submission.active_users}, 0, ${submission.server_image},
  ${JSON.stringify(featureLines(submission.features))}, '[]', 0, 0, ${submission.invite_link}, '[]', '[]', 0, 1,
  ${submission.guild_id}, ${submission.guild_icon}, ${submission.invite_code}, ${fresh.status}, ${fresh.checkedAt},
  ${fresh.checkedAt}, ${fresh.nextCheckAt}, ${submission.language}, ${submission.region}
WHERE EXISTS (SELECT 1 FROM ${serverSubmissions} WHERE id = ${submission.id} AND status <> 'approved')`);
}

/** The listing that already has Discord's guild `guildId`, or null. */
async function listingOfGuild(db: Db, guildId: string | null): Promise<ServerRow | null> {
  if (!guildId) return null;
  const [row] = await db.select().from(discordServers).where(eq(discordServers.guild_id, guildId)).limit(1);
  return row ?? null;
}

/**
 * Approves a submission: creates its listing and marks it approved with the
 * new server_id in one atomic batch, so neither can happen without the other. A batch, not an
 * interactive transaction: on the embedded file database an open transaction would stall
 * every other writer of the process behind it. A `subcategory` (the reviewer's, null for none)
 * replaces the owner's on both rows; the caller checks it belongs to the category.
 */
export async function approveSubmission(
  db: Db,
  id: number,
  adminNotes?: string | null,
  subcategory?: string | null,
  /** The "approved" mail (#16) for the listing's slug, written in the approval's batch, once. */
  approvedMail?: (submission: SubmissionRecord, slug: string) => SubmissionMail,
  /** The reviewer's language and region (#19): a value (null for none) replaces the owner's on both rows. */
  reviewed: { language?: string | null | undefined; region?: string | null | undefined } = {},
  /** Who approved: the audit row, written in the approval's batch (only when this call approved it). */
  approver?: AuditAuthor,
  /**
   * More writes for the approval's batch given the listing's slug (the record of its page for the
   * rebuild), each to be written only while `approved` holds (SQL: this batch approved it).
   */
  alsoWrite?: (slug: string, approved: SQL) => BatchItem<'sqlite'>[],
): Promise<ApproveResult> {
  for (let attempt = 0; ; attempt++) {
    const stored = await getSubmissionById(db, id);
    if (!stored) return { ok: false, reason: 'not_found' };
    const current = {
      ...stored,
      ...(subcategory !== undefined && { subcategory }),
      ...(reviewed.language !== undefined && { language: reviewed.language }),
      ...(reviewed.region !== undefined && { region: reviewed.region }),
    };
    if (current.status === 'approved') return { ok: false, reason: 'already_approved' };
    const listed = await listingOfGuild(db, current.guild_id);
    if (listed) return { ok: false, reason: 'guild_listed', server: listed };
    const slug = await uniqueSlug(db, serverSlug(current.server_name));
    let updated: SubmissionRecord[];
    /** Holds once this batch approved it: the submission approved with the listing of this slug. */
    const approvedHere = sql`EXISTS (SELECT 1 FROM ${serverSubmissions} WHERE id = ${id} AND status = 'approved'
  AND server_id = (SELECT id FROM ${discordServers} WHERE slug = ${slug}))`;
    // The check at submission is the listing's first history row (its 30-day chart starts there).
    const firstCheck = current.guild_id
      ? [
          db.run(sql`INSERT OR IGNORE INTO ${serverSnapshots} (server_id, checked_at, outcome, member_count, online_count)
SELECT id, ${current.created_at}, 'ok', ${current.member_count}, ${current.active_users} FROM ${discordServers}
WHERE slug = ${slug} AND guild_id = ${current.guild_id}`),
        ]
      : [];
    try {
      [, updated] = await db.batch([
        insertListingFrom(db, current, slug),
        db
          .update(serverSubmissions)
          .set({
            status: 'approved',
            server_id: sql`(SELECT id FROM ${discordServers} WHERE slug = ${slug})`,
            subcategory: current.subcategory,
            language: current.language,
            region: current.region,
            ...(adminNotes !== undefined ? { admin_notes: adminNotes } : {}),
            updated_at: new Date().toISOString(),
            decided_at: new Date().toISOString(),
          })
          .where(and(eq(serverSubmissions.id, id), ne(serverSubmissions.status, 'approved')))
          .returning(),
        // Right after the UPDATE: changes() is 1 only when this batch approved it.
        ...(approver
          ? [
              auditRowWhen(
                db,
                approver,
                {
                  action: 'approve',
                  entity: 'submission',
                  entityId: id,
                  details: { server_id: sql`(SELECT id FROM ${discordServers} WHERE slug = ${slug})`, slug },
                },
                sql`changes() = 1`,
              ),
            ]
          : []),
        ...firstCheck,
        // A verified owner's submission is theirs to manage at once, re-proved now: only while the
        // owner's last sign-in still showed them owning or managing the guild, with the proof it showed
        // (a manager who lost Manage Server and signed in since claims nothing).
        ...(current.owner_id && current.owner_verified && current.guild_id
          ? [
              db.run(sql`INSERT OR IGNORE INTO ${serverClaims} (server_id, owner_id, proof)
SELECT s.id, ${current.owner_id}, ${lastSignInProof(current.guild_id)} FROM ${discordServers} s, ${ownerUsers}
WHERE s.slug = ${slug} AND ${ownerUsers.id} = ${current.owner_id} AND ${lastSignInProof(current.guild_id)} IN ('owner', 'manage_guild')
  AND EXISTS (SELECT 1 FROM ${serverSubmissions} WHERE id = ${id} AND status = 'approved' AND server_id = s.id)`),
            ]
          : []),
        ...(approvedMail
          ? [
              enqueueMailWhen(
                db,
                {
                  ...approvedMail(current, slug),
                  kind: 'submission_approved',
                  to: current.contact_email,
                  dedupeKey: sql`${`submission-approved:${id}`}`,
                },
                approvedHere,
              ),
            ]
          : []),
        ...(alsoWrite?.(slug, approvedHere) ?? []),
      ]);
    } catch (err) {
      if (isUniqueViolation(err)) {
        // Another approval listed the same guild between the read and the write.
        const taken = await listingOfGuild(db, current.guild_id);
        if (taken) return { ok: false, reason: 'guild_listed', server: taken };
        // Another listing took the slug between the read and the write: pick a new one once.
        if (attempt === 0) continue;
      }
      throw err;
    }
    const submission = updated[0];
    // Approved by someone else between our read and the batch: the guarded insert did nothing.
    if (!submission) return { ok: false, reason: 'already_approved' };
    const [server] = await db
      .select()
      .from(discordServers)
      .where(eq(discordServers.id, submission.server_id!))
      .limit(1);
    return { ok: true, submission, server: server! };
  }
}

/** Deletes a submission by id; true when a row went. */
export async function deleteSubmission(db: Db, id: number, audit?: AuditWrite): Promise<boolean> {
  const { rowsAffected } = await withAudit(db, db.delete(serverSubmissions).where(eq(serverSubmissions.id, id)), audit);
  return rowsAffected > 0;
}

/** Counts of all submissions and of each status. */
export async function getSubmissionStats(db: Db): Promise<SubmissionStats> {
  const rows = await db
    .select({ status: serverSubmissions.status, n: sql<number>`count(*)` })
    .from(serverSubmissions)
    .groupBy(serverSubmissions.status);
  const stats: SubmissionStats = { total: 0, pending: 0, under_review: 0, approved: 0, rejected: 0 };
  for (const r of rows) {
    stats[r.status] = Number(r.n);
    stats.total += Number(r.n);
  }
  return stats;
}
