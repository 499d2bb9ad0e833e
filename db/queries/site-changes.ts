import { asc, gte, lt } from 'drizzle-orm';
import type { Db } from '../client';
import { siteChanges } from '../schema';

/** A change the prerendered pages may not hold yet. */
export interface SiteChange {
  reason: string;
  /** A public path whose prerendered file it makes stale, or null. */
  page: string | null;
  /** ms since the epoch. */
  requestedAt: number;
}

/** Rows per INSERT of recordSiteChange: one statement of 200,000 rows overflowed the query builder's stack. */
const ROWS_PER_INSERT = 1_000;

/**
 * Records a change that asks for a rebuild: one row per page it names (one row without a page when
 * it names none), in one batch. An approval names every listing whose place in its category it
 * moved: at a million listings that was 200,000 pages, one INSERT too many for drizzle's builder
 * (RangeError: Maximum call stack size exceeded, after the approval was stored), so the rows go
 * ROWS_PER_INSERT to a statement.
 */
export async function recordSiteChange(
  db: Db,
  change: { reason: string; pages?: readonly string[] | undefined; at: number },
): Promise<void> {
  const pages = change.pages?.length ? [...new Set(change.pages)] : [null];
  const rows = pages.map((page) => ({ reason: change.reason, page, requested_at: change.at }));
  const [first, ...rest] = Array.from({ length: Math.ceil(rows.length / ROWS_PER_INSERT) }, (_, i) =>
    db.insert(siteChanges).values(rows.slice(i * ROWS_PER_INSERT, (i + 1) * ROWS_PER_INSERT)),
  );
  if (first) await db.batch([first, ...rest]);
}

/** The changes asked for at or after `since` (ms), oldest first: what a build that began at `since` may lack. */
export async function listSiteChanges(db: Db, since = 0): Promise<SiteChange[]> {
  const rows = await db
    .select()
    .from(siteChanges)
    .where(gte(siteChanges.requested_at, since))
    .orderBy(asc(siteChanges.requested_at), asc(siteChanges.id));
  return rows.map((r) => ({ reason: r.reason, page: r.page, requestedAt: r.requested_at }));
}

/** Forgets the changes asked for before `before` (ms): a build that began then holds them and is live. */
export async function clearSiteChanges(db: Db, before: number): Promise<void> {
  await db.delete(siteChanges).where(lt(siteChanges.requested_at, before));
}
