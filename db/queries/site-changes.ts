import { and, asc, gte, isNull, lt, lte, max, type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../client';
import { siteChanges } from '../schema';

/** What a change may alter: only the listings its page names, or anything on the site (RebuildTrigger.request). */
export type SiteChangeScope = 'listings' | 'site';

/** A change the prerendered pages may not hold yet. */
export interface SiteChange {
  /** The row's id: rows are numbered in the order they were recorded (a deploy clears up to one). */
  id: number;
  reason: string;
  /** A public path whose prerendered file it makes stale, or null. */
  page: string | null;
  /** ms since the epoch. */
  requestedAt: number;
  /** 'listings': an incremental publish of `page` holds it; 'site': only a full build does. */
  scope: SiteChangeScope;
}

/** Rows per INSERT of recordSiteChange: one statement of 200,000 rows overflowed the query builder's stack. */
const ROWS_PER_INSERT = 1_000;

/**
 * Records a change that asks for a rebuild: one row per page it names (one row without a page when
 * it names none), in one batch. An approval names every listing whose place in its category it
 * moved: at a million listings that was 200,000 pages, one INSERT too many for drizzle's builder
 * (RangeError: Maximum call stack size exceeded, after the approval was stored), so the rows go
 * ROWS_PER_INSERT to a statement. A change scoped to 'listings' that names no page may touch
 * anything, so it is recorded as 'site'.
 */
export async function recordSiteChange(
  db: Db,
  change: { reason: string; pages?: readonly string[] | undefined; at: number; scope?: SiteChangeScope | undefined },
): Promise<void> {
  const [first, ...rest] = siteChangeInserts(db, change);
  if (first) await db.batch([first, ...rest]);
}

/**
 * recordSiteChange's statements, for a caller's own batch: the write that makes a change and the
 * record of it then stand or fall together (RebuildTrigger.prepare). With `when`, the rows are
 * written only while it holds (SQL evaluated in the batch: the write applied), so a write that
 * changed nothing records nothing.
 */
export function siteChangeInserts(
  db: Db,
  change: { reason: string; pages?: readonly string[] | undefined; at: number; scope?: SiteChangeScope | undefined },
  when?: SQL,
): BatchItem<'sqlite'>[] {
  const pages = change.pages?.length ? [...new Set(change.pages)] : [null];
  const scope: SiteChangeScope = change.scope === 'listings' && change.pages?.length ? 'listings' : 'site';
  const rows = pages.map((page) => ({ reason: change.reason, page, requested_at: change.at, scope }));
  return Array.from({ length: Math.ceil(rows.length / ROWS_PER_INSERT) }, (_, i) => {
    const chunk = rows.slice(i * ROWS_PER_INSERT, (i + 1) * ROWS_PER_INSERT);
    if (!when) return db.insert(siteChanges).values(chunk);
    const values = sql.join(
      chunk.map((r) => sql`(${r.reason}, ${r.page}, ${r.requested_at}, ${r.scope})`),
      sql`, `,
    );
    // A later chunk's `when` is read after the chunk before it: `changes() > 0` then still holds.
    return db.run(sql`INSERT INTO ${siteChanges} (reason, page, requested_at, scope)
SELECT column1, column2, column3, column4 FROM (VALUES ${values}) WHERE ${when}`);
  });
}

const columns = {
  id: siteChanges.id,
  reason: siteChanges.reason,
  page: siteChanges.page,
  requestedAt: siteChanges.requested_at,
  scope: siteChanges.scope,
};

/** The changes asked for at or after `since` (ms), oldest first: what a build that began at `since` may lack. */
export async function listSiteChanges(db: Db, since = 0): Promise<SiteChange[]> {
  return db
    .select(columns)
    .from(siteChanges)
    .where(gte(siteChanges.requested_at, since))
    .orderBy(asc(siteChanges.requested_at), asc(siteChanges.id));
}

/** Forgets the changes asked for before `before` (ms): a build that began then holds them and is live. */
export async function clearSiteChanges(db: Db, before: number): Promise<void> {
  await db.delete(siteChanges).where(lt(siteChanges.requested_at, before));
}

/** The id of the last change recorded, 0 when none is: the point a deploy that reads the database now covers. */
export async function lastSiteChangeId(db: Db): Promise<number> {
  const [row] = await db.select({ id: max(siteChanges.id) }).from(siteChanges);
  return row?.id ?? 0;
}

/** The changes recorded after the change `afterId` up to `throughId`, in order: what a deploy from a build covering `afterId` adds. */
export async function listSiteChangesBetween(db: Db, afterId: number, throughId: number): Promise<SiteChange[]> {
  return db
    .select(columns)
    .from(siteChanges)
    .where(and(gte(siteChanges.id, afterId + 1), lte(siteChanges.id, throughId)))
    .orderBy(asc(siteChanges.id));
}

/** Forgets the changes up to and including `throughId`: a deploy that holds them is live (scripts/deploy.ts). */
export async function clearSiteChangesThrough(db: Db, throughId: number): Promise<void> {
  await db.delete(siteChanges).where(lte(siteChanges.id, throughId));
}

/**
 * Marks the changes recorded up to `at` (ms) that no deploy-hook call covered yet as covered by the
 * call made at `at`: the deploy job it starts reads them. The rows stay until that job deploys them.
 */
export async function markHookCalled(db: Db, at: number): Promise<void> {
  await db
    .update(siteChanges)
    .set({ hook_called_at: at })
    .where(and(lte(siteChanges.requested_at, at), isNull(siteChanges.hook_called_at)));
}

/** The changes asked for at or before `before` (ms) that no successful deploy-hook call has covered. */
export async function listUncalledSiteChanges(db: Db, before: number): Promise<SiteChange[]> {
  return db
    .select(columns)
    .from(siteChanges)
    .where(and(lte(siteChanges.requested_at, before), isNull(siteChanges.hook_called_at)))
    .orderBy(asc(siteChanges.id));
}
