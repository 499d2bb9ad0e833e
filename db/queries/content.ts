import { and, asc, eq, not, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { type ContentRow, siteContent } from '../schema';
import { type AuditWrite, withAudit } from './audit';

/** One site_content row. */
export type ContentItem = ContentRow;
/** The fields an operator writes. */
export type ContentWrite = Omit<ContentRow, 'id'>;

/** One active content value; '' when absent or on any error. */
export async function getContentValue(db: Db, page: string, section: string, key: string): Promise<string> {
  try {
    const [row] = await db
      .select({ value: siteContent.content_value })
      .from(siteContent)
      .where(
        and(
          eq(siteContent.page, page),
          eq(siteContent.section, section),
          eq(siteContent.content_key, key),
          eq(siteContent.is_active, true),
        ),
      )
      .limit(1);
    return row?.value ?? '';
  } catch (err) {
    console.error('getContentValue failed:', err);
    return '';
  }
}

/** Every active content row ordered by page, section and sort_order: the build reads them once. */
export async function listActiveContent(db: Db): Promise<ContentItem[]> {
  return db
    .select()
    .from(siteContent)
    .where(eq(siteContent.is_active, true))
    .orderBy(asc(siteContent.page), asc(siteContent.section), asc(siteContent.sort_order));
}

/** Every content row ordered by page, section and sort_order (the console). */
export async function listAllContent(db: Db): Promise<ContentItem[]> {
  return db
    .select()
    .from(siteContent)
    .orderBy(asc(siteContent.page), asc(siteContent.section), asc(siteContent.sort_order), asc(siteContent.id));
}

/** One content row by id, or null. */
export async function getContentById(db: Db, id: number): Promise<ContentItem | null> {
  const [row] = await db.select().from(siteContent).where(eq(siteContent.id, id)).limit(1);
  return row ?? null;
}

/** Inserts a content row and returns it; `audit`'s row in the same batch (its id: `last_insert_rowid()`). */
export async function createContent(db: Db, input: ContentWrite, audit?: AuditWrite): Promise<ContentItem> {
  const [row] = await withAudit(db, db.insert(siteContent).values(input).returning(), audit);
  return row!;
}

/** Updates a content row by id, with `audit`'s row in the same batch; null when it does not exist. */
export async function updateContent(
  db: Db,
  id: number,
  patch: Partial<ContentWrite>,
  audit?: AuditWrite,
): Promise<ContentItem | null> {
  const [row] = await withAudit(db, db.update(siteContent).set(patch).where(eq(siteContent.id, id)).returning(), audit);
  return row ?? null;
}

/** Deletes a content row by id, with `audit`'s row in the same batch; true when a row went. */
export async function deleteContent(db: Db, id: number, audit?: AuditWrite): Promise<boolean> {
  const rows = await withAudit(
    db,
    db.delete(siteContent).where(eq(siteContent.id, id)).returning({ id: siteContent.id }),
    audit,
  );
  return rows.length > 0;
}

/**
 * Flips is_active of a content row, with `audit`'s row in the same batch (`isActiveNow` puts the
 * new value in its details); returns the row or null.
 */
export async function toggleContent(db: Db, id: number, audit?: AuditWrite): Promise<ContentItem | null> {
  const [row] = await withAudit(
    db,
    db
      .update(siteContent)
      .set({ is_active: not(siteContent.is_active) })
      .where(eq(siteContent.id, id))
      .returning(),
    audit,
  );
  return row ?? null;
}

/** A content row's is_active as JSON true/false, read inside a batch (an audit row's details). */
export const isActiveNow = (id: number) =>
  sql`json(CASE WHEN (SELECT ${siteContent.is_active} FROM ${siteContent} WHERE ${siteContent.id} = ${id}) THEN 'true' ELSE 'false' END)`;
