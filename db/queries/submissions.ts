import { and, eq, ne, sql } from 'drizzle-orm';
import type { SubmissionStatus } from '../../src/lib/enums';
import { featureLines } from '../../src/lib/schemas/submission';
import { serverSlug } from '../../src/lib/slug';
import { isUniqueViolation } from '../busy';
import type { Db } from '../client';
import { discordServers, type ServerRow, type SubmissionRow, serverSubmissions } from '../schema';
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
  | 'invite_link'
  | 'server_image'
  | 'contact_email'
  | 'features'
  | 'member_count'
  | 'active_users'
  | 'submitter_name'
  | 'is_owner'
>;

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

/** Submissions newest first, optionally of one status, one page of them, with the total. */
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
): Promise<SubmissionRecord | null> {
  const [row] = await db
    .update(serverSubmissions)
    .set({
      status,
      ...(adminNotes !== undefined ? { admin_notes: adminNotes } : {}),
      updated_at: new Date().toISOString(),
    })
    .where(eq(serverSubmissions.id, id))
    .returning();
  return row ?? null;
}

/** What approveSubmission did: the new listing, or why nothing happened. */
export type ApproveResult =
  | { ok: true; submission: SubmissionRecord; server: ServerRow }
  | { ok: false; reason: 'not_found' | 'already_approved' };

/**
 * The INSERT of the listing SPEC section 4 makes from a submission, guarded so it only
 * happens while the submission is not yet approved (a second approval inserts nothing).
 */
function insertListingFrom(db: Db, submission: SubmissionRecord, slug: string) {
  return db.run(sql`INSERT INTO ${discordServers}
  (name, description, category, subcategory, slug, members, active_users, rating, image_url, pros, cons,
   is_premium, is_sponsored, affiliate_link, tags, features, sort_order, is_active)
SELECT ${submission.server_name}, ${submission.server_description}, ${submission.category}, ${submission.subcategory}, ${slug},
  ${submission.member_count}, ${submission.active_users}, 0, ${submission.server_image},
  ${JSON.stringify(featureLines(submission.features))}, '[]', 0, 0, ${submission.invite_link}, '[]', '[]', 0, 1
WHERE EXISTS (SELECT 1 FROM ${serverSubmissions} WHERE id = ${submission.id} AND status <> 'approved')`);
}

/**
 * Approves a submission: creates its listing (SPEC section 4) and marks it approved with the
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
): Promise<ApproveResult> {
  for (let attempt = 0; ; attempt++) {
    const stored = await getSubmissionById(db, id);
    if (!stored) return { ok: false, reason: 'not_found' };
    const current = subcategory === undefined ? stored : { ...stored, subcategory };
    if (current.status === 'approved') return { ok: false, reason: 'already_approved' };
    const slug = await uniqueSlug(db, serverSlug(current.server_name));
    let updated: SubmissionRecord[];
    try {
      [, updated] = await db.batch([
        insertListingFrom(db, current, slug),
        db
          .update(serverSubmissions)
          .set({
            status: 'approved',
            server_id: sql`(SELECT id FROM ${discordServers} WHERE slug = ${slug})`,
            subcategory: current.subcategory,
            ...(adminNotes !== undefined ? { admin_notes: adminNotes } : {}),
            updated_at: new Date().toISOString(),
          })
          .where(and(eq(serverSubmissions.id, id), ne(serverSubmissions.status, 'approved')))
          .returning(),
      ]);
    } catch (err) {
      // Another listing took the slug between the read and the write: pick a new one once.
      if (attempt === 0 && isUniqueViolation(err)) continue;
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
export async function deleteSubmission(db: Db, id: number): Promise<boolean> {
  const rows = await db
    .delete(serverSubmissions)
    .where(eq(serverSubmissions.id, id))
    .returning({ id: serverSubmissions.id });
  return rows.length > 0;
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
