// Owners' edits of their listings (#17): a diff { field: { from, to } } waiting for an operator,
// applied to the listing only on approval.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { EditStatus } from '../../src/lib/enums';
import type { EditableField } from '../../src/lib/schemas/owner';
import type { Db } from '../client';
import { discordServers, type ListingEditRow, listingEdits, ownerUsers } from '../schema';
import { type AuditWrite, auditStatements } from './audit';
import type { PageOptions } from './paginate';
import { type Server, type ServerWrite, serverUpdateStatements } from './servers';

/** The diff of an edit: each changed field's value before and after. */
export type EditChanges = Partial<Record<EditableField, { from: unknown; to: unknown }>>;

/**
 * Stores an owner's edit of a listing as pending. An edit of theirs still waiting for the same
 * listing is replaced (its diff is the new one), so the queue holds one edit per listing and owner.
 */
export async function saveListingEdit(
  db: Db,
  serverId: number,
  ownerId: number,
  changes: EditChanges,
): Promise<ListingEditRow> {
  const [waiting] = await db
    .select({ id: listingEdits.id })
    .from(listingEdits)
    .where(
      and(eq(listingEdits.server_id, serverId), eq(listingEdits.owner_id, ownerId), eq(listingEdits.status, 'pending')),
    )
    .limit(1);
  if (waiting) {
    const [row] = await db
      .update(listingEdits)
      .set({ changes, created_at: new Date().toISOString() })
      .where(eq(listingEdits.id, waiting.id))
      .returning();
    return row!;
  }
  const [row] = await db.insert(listingEdits).values({ server_id: serverId, owner_id: ownerId, changes }).returning();
  return row!;
}

/** An edit as the review queue shows it: the listing's name and slug and the owner's Discord name beside the diff. */
export interface ListingEditView extends ListingEditRow {
  server_name: string;
  server_slug: string;
  owner_username: string | null;
}

const editView = {
  id: listingEdits.id,
  server_id: listingEdits.server_id,
  owner_id: listingEdits.owner_id,
  changes: listingEdits.changes,
  status: listingEdits.status,
  admin_notes: listingEdits.admin_notes,
  decided_by: listingEdits.decided_by,
  decided_at: listingEdits.decided_at,
  created_at: listingEdits.created_at,
  server_name: discordServers.name,
  server_slug: discordServers.slug,
  owner_username: ownerUsers.username,
};

/** One page of edits (all, or of one status), newest first, with the total. */
export async function listListingEdits(
  db: Db,
  options: PageOptions & { status?: EditStatus | undefined } = {},
): Promise<{ edits: ListingEditView[]; total: number }> {
  const where = options.status ? eq(listingEdits.status, options.status) : undefined;
  const { page = 1, perPage = 50 } = options;
  const [edits, totals] = await Promise.all([
    db
      .select(editView)
      .from(listingEdits)
      .innerJoin(discordServers, eq(discordServers.id, listingEdits.server_id))
      .leftJoin(ownerUsers, eq(ownerUsers.id, listingEdits.owner_id))
      .where(where)
      .orderBy(desc(listingEdits.created_at), desc(listingEdits.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db.select({ n: sql<number>`count(*)` }).from(listingEdits).where(where),
  ]);
  return { edits, total: Number(totals[0]?.n ?? 0) };
}

/** One edit with its listing and owner, or null. */
export async function getListingEdit(db: Db, id: number): Promise<ListingEditView | null> {
  const [row] = await db
    .select(editView)
    .from(listingEdits)
    .innerJoin(discordServers, eq(discordServers.id, listingEdits.server_id))
    .leftJoin(ownerUsers, eq(ownerUsers.id, listingEdits.owner_id))
    .where(eq(listingEdits.id, id))
    .limit(1);
  return row ?? null;
}

/** What deciding an edit did. */
export type DecideResult =
  | { ok: true; edit: ListingEditRow; server: Server | null }
  | { ok: false; reason: 'not_found' | 'already_decided' };

/**
 * Approves or rejects a pending edit in one batch: the decision (the status moves once; a second
 * decision finds it decided), on approval the listing's change (each changed field's new value,
 * the owner's `to` winning, with the slug history a rename would need) and the operator's audit
 * row, all or none. The edit is read first and every statement is written only while it is still
 * pending as read, so an edit the owner replaced in between is read and decided again.
 */
export async function decideListingEdit(
  db: Db,
  id: number,
  decision: { status: Exclude<EditStatus, 'pending'>; decidedBy: string; notes?: string | null | undefined },
  audit?: AuditWrite,
): Promise<DecideResult> {
  for (let attempt = 1; ; attempt++) {
    const [read] = await db.select().from(listingEdits).where(eq(listingEdits.id, id)).limit(1);
    if (!read) return { ok: false, reason: 'not_found' };
    if (read.status !== 'pending') return { ok: false, reason: 'already_decided' };
    const asRead = and(
      eq(listingEdits.id, id),
      eq(listingEdits.status, 'pending'),
      // A replacement by the owner (saveListingEdit) stamps a new created_at.
      eq(listingEdits.created_at, read.created_at),
    );
    const patch: Partial<Record<EditableField, unknown>> = {};
    for (const [field, change] of Object.entries(read.changes)) patch[field as EditableField] = change.to;
    // The listing's statements come first, while the edit is still pending as read.
    const listing =
      decision.status === 'approved'
        ? await serverUpdateStatements(
            db,
            read.server_id,
            patch as Partial<ServerWrite>,
            sql`EXISTS (SELECT 1 FROM ${listingEdits} WHERE ${asRead})`,
          )
        : null;
    const decide = db
      .update(listingEdits)
      .set({
        status: decision.status,
        decided_by: decision.decidedBy,
        decided_at: new Date().toISOString(),
        admin_notes: decision.notes ?? null,
      })
      .where(asRead)
      .returning();
    const statements = listing?.statements ?? [];
    const results = await db.batch([...statements, decide, ...(audit ? auditStatements(db, audit) : [])]);
    const [edit] = results[statements.length] as ListingEditRow[];
    // Replaced by the owner between the read and the batch (nothing written): read it again.
    if (!edit) {
      if (attempt < 3) continue;
      throw new Error(`listing edit ${id} kept changing while it was decided`);
    }
    const server = listing ? ((results[listing.updateAt] as Server[])[0] ?? null) : null;
    return { ok: true, edit, server };
  }
}

/** An edit's changes as JSON, read inside a batch (the audit row of its decision). */
export const editChangesNow = (id: number) =>
  sql`json((SELECT ${listingEdits.changes} FROM ${listingEdits} WHERE ${listingEdits.id} = ${id}))`;
