// Owners' edits of their listings (#17): a diff { field: { from, to } } waiting for an operator,
// applied to the listing only on approval.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { EditStatus } from '../../src/lib/enums';
import type { EditableField } from '../../src/lib/schemas/owner';
import type { Db } from '../client';
import { discordServers, type ListingEditRow, listingEdits, ownerUsers } from '../schema';
import { type AuditWrite, withAudit } from './audit';
import type { PageOptions } from './paginate';
import { type Server, updateServer } from './servers';

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
 * Approves or rejects a pending edit: the status moves once (a second decision finds it decided);
 * approval then writes each changed field's new value on the listing (the owner's `to` wins). The
 * operator's audit row is written in the batch of the decision.
 */
export async function decideListingEdit(
  db: Db,
  id: number,
  decision: { status: Exclude<EditStatus, 'pending'>; decidedBy: string; notes?: string | null | undefined },
  audit?: AuditWrite,
): Promise<DecideResult> {
  const [edit] = await withAudit(
    db,
    db
      .update(listingEdits)
      .set({
        status: decision.status,
        decided_by: decision.decidedBy,
        decided_at: new Date().toISOString(),
        admin_notes: decision.notes ?? null,
      })
      .where(and(eq(listingEdits.id, id), eq(listingEdits.status, 'pending')))
      .returning(),
    audit,
  );
  if (!edit) {
    const [exists] = await db.select({ id: listingEdits.id }).from(listingEdits).where(eq(listingEdits.id, id));
    return { ok: false, reason: exists ? 'already_decided' : 'not_found' };
  }
  if (decision.status !== 'approved') return { ok: true, edit, server: null };
  const patch: Partial<Record<EditableField, unknown>> = {};
  for (const [field, change] of Object.entries(edit.changes)) patch[field as EditableField] = change.to;
  const server = await updateServer(db, edit.server_id, patch as Parameters<typeof updateServer>[2]);
  return { ok: true, edit, server };
}

/** An edit's changes as JSON, read inside a batch (the audit row of its decision). */
export const editChangesNow = (id: number) =>
  sql`json((SELECT ${listingEdits.changes} FROM ${listingEdits} WHERE ${listingEdits.id} = ${id}))`;
