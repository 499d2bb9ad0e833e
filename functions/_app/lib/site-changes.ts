import type { SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../../db/client';
import type { RebuildTrigger } from '../context';

/** The server pages of some listings (a missing slug is skipped). */
export const serverPaths = (slugs: readonly (string | undefined)[]): string[] =>
  slugs.filter((s): s is string => Boolean(s)).map((s) => `/server/${s}`);

/**
 * Asks the public pages to catch up with a change visitors see (the trigger coalesces changes) and
 * resolves once the change is recorded, so it survives a restart. `pages`: the server pages of the
 * listings it changes. With them the change touches only those listings (their pages, the listing
 * pages they stand in, the home), which Node publishes without a full build; with none the whole
 * site is built. For a change already stored: a write that can carry its record uses preparePublish.
 */
export async function requestPublish(
  rebuild: RebuildTrigger | undefined,
  reason: string,
  pages: readonly string[] = [],
): Promise<void> {
  await rebuild?.request(reason, pages, pages.length > 0 ? 'listings' : 'site');
}

/** A change's record for the batch of the write that makes it, and what to do once that batch is stored. */
export interface PendingPublish {
  /** The site_changes rows (none when the trigger keeps no record, or records on its own): in the write's batch. */
  statements: BatchItem<'sqlite'>[];
  /** Called once the batch is stored: the build is asked for (or, without `prepare`, the change recorded now). */
  requested(): Promise<void>;
}

/**
 * requestPublish in two halves (RebuildTrigger.prepare): the record goes in the write's own batch,
 * so a write stored without its record (a crash, a failed insert between the two) cannot happen.
 * `when` (SQL read in the batch): the rows are written only while it holds, e.g. `changes() > 0`
 * right after the statement they follow. A trigger without `prepare` records in `requested()`.
 */
export function preparePublish(
  rebuild: RebuildTrigger | undefined,
  db: Db,
  reason: string,
  pages: readonly string[] = [],
  when?: SQL,
): PendingPublish {
  const scope = pages.length > 0 ? 'listings' : 'site';
  const change = rebuild?.prepare?.(db, reason, pages, scope, when);
  if (!change) return { statements: [], requested: () => requestPublish(rebuild, reason, pages) };
  return { statements: change.statements, requested: async () => await change.requested() };
}
