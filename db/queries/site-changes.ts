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

/** Records a change that asks for a rebuild: one row per page it names (one row without a page when it names none). */
export async function recordSiteChange(
  db: Db,
  change: { reason: string; pages?: readonly string[] | undefined; at: number },
): Promise<void> {
  const pages = change.pages?.length ? [...new Set(change.pages)] : [null];
  await db.insert(siteChanges).values(pages.map((page) => ({ reason: change.reason, page, requested_at: change.at })));
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
