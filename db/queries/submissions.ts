import { desc, eq, type SQL, sql } from 'drizzle-orm';
import type { SubmissionStatus } from '../../src/lib/enums';
import { featureLines } from '../../src/lib/schemas/submission';
import { serverSlug } from '../../src/lib/slug';
import type { Db } from '../client';
import { discordServers, type ServerRow, type SubmissionRow, serverSubmissions } from '../schema';
import { uniqueSlug } from './servers';

export type SubmissionRecord = SubmissionRow;

/** The fields an owner sends; status, notes and timestamps are the server's. */
export type SubmissionWrite = Pick<
  typeof serverSubmissions.$inferInsert,
  | 'server_name'
  | 'server_description'
  | 'category'
  | 'invite_link'
  | 'server_image'
  | 'contact_email'
  | 'features'
  | 'member_count'
  | 'active_users'
  | 'submitter_name'
  | 'is_owner'
>;

export interface SubmissionListOptions {
  status?: SubmissionStatus | undefined;
  page?: number | undefined;
  perPage?: number | undefined;
}

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
    .values({
      server_name: input.server_name,
      server_description: input.server_description,
      category: input.category,
      invite_link: input.invite_link,
      server_image: input.server_image ?? null,
      contact_email: input.contact_email,
      features: input.features ?? null,
      member_count: input.member_count ?? 0,
      active_users: input.active_users ?? 0,
      submitter_name: input.submitter_name,
      is_owner: input.is_owner ?? true,
      status: 'pending',
    })
    .returning();
  return row!;
}

/** Submissions newest first, optionally of one status, one page of them, with the total. */
export async function listSubmissions(
  db: Db,
  options: SubmissionListOptions = {},
): Promise<{ submissions: SubmissionRecord[]; total: number }> {
  const where: SQL | undefined = options.status ? eq(serverSubmissions.status, options.status) : undefined;
  const perPage = options.perPage ?? 50;
  const page = options.page ?? 1;
  const [submissions, totals] = await Promise.all([
    db
      .select()
      .from(serverSubmissions)
      .where(where)
      .orderBy(desc(serverSubmissions.created_at), desc(serverSubmissions.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db.select({ n: sql<number>`count(*)` }).from(serverSubmissions).where(where),
  ]);
  return { submissions, total: Number(totals[0]?.n ?? 0) };
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

export type ApproveResult =
  | { ok: true; submission: SubmissionRecord; server: ServerRow }
  | { ok: false; reason: 'not_found' | 'already_approved' };

/** The listing SPEC section 4 makes from a submission. */
function listingFrom(submission: SubmissionRecord, slug: string): typeof discordServers.$inferInsert {
  return {
    name: submission.server_name,
    description: submission.server_description,
    category: submission.category,
    subcategory: null,
    slug,
    members: submission.member_count,
    active_users: submission.active_users,
    rating: 0,
    image_url: submission.server_image,
    pros: featureLines(submission.features),
    cons: [],
    is_premium: false,
    is_sponsored: false,
    affiliate_link: submission.invite_link,
    tags: [],
    features: [],
    sort_order: 0,
    is_active: true,
  };
}

const isUniqueViolation = (err: unknown): boolean =>
  /UNIQUE constraint failed|SQLITE_CONSTRAINT/i.test(`${String(err)} ${String((err as { cause?: unknown }).cause)}`);

/**
 * Approves a submission: creates its listing (SPEC section 4) and marks it approved with
 * the new server_id in one transaction, so neither can happen without the other.
 */
export async function approveSubmission(db: Db, id: number, adminNotes?: string | null): Promise<ApproveResult> {
  for (let attempt = 0; ; attempt++) {
    const current = await getSubmissionById(db, id);
    if (!current) return { ok: false, reason: 'not_found' };
    if (current.status === 'approved') return { ok: false, reason: 'already_approved' };
    const slug = await uniqueSlug(db, serverSlug(current.server_name));
    try {
      return await db.transaction(async (tx) => {
        // Re-read inside the transaction: a concurrent approval must not create a second listing.
        const [fresh] = await tx.select().from(serverSubmissions).where(eq(serverSubmissions.id, id)).limit(1);
        if (!fresh) return { ok: false, reason: 'not_found' } as const;
        if (fresh.status === 'approved') return { ok: false, reason: 'already_approved' } as const;
        const [server] = await tx.insert(discordServers).values(listingFrom(fresh, slug)).returning();
        const [submission] = await tx
          .update(serverSubmissions)
          .set({
            status: 'approved',
            server_id: server!.id,
            ...(adminNotes !== undefined ? { admin_notes: adminNotes } : {}),
            updated_at: new Date().toISOString(),
          })
          .where(eq(serverSubmissions.id, id))
          .returning();
        return { ok: true, submission: submission!, server: server! } as const;
      });
    } catch (err) {
      // Another listing took the slug between the read and the write: pick a new one once.
      if (attempt === 0 && isUniqueViolation(err)) continue;
      throw err;
    }
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
