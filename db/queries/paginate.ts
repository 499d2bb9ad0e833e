import { asc, count, desc, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../client';

/** Which page of a list, and how long a page is (1-based; 50 rows when not given). */
export interface PageOptions {
  page?: number | undefined;
  perPage?: number | undefined;
  /** Oldest first instead (the review queue, #32: whoever waited longest is seen first). */
  oldestFirst?: boolean | undefined;
}

/** A table the console lists newest first: it has an id and a created_at. */
type ListedTable = SQLiteTable & { id: SQLiteColumn; created_at: SQLiteColumn };

/**
 * One page of a table's rows that match `where`, newest first (ties by id), with the count of
 * all that match: the shape of every console list.
 */
export async function pageNewestFirst<T extends ListedTable>(
  db: Db,
  table: T,
  where: SQL | undefined,
  { page = 1, perPage = 50, oldestFirst = false }: PageOptions = {},
): Promise<{ rows: T['$inferSelect'][]; total: number }> {
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(table as SQLiteTable)
      .where(where)
      .orderBy(...(oldestFirst ? [asc(table.created_at), asc(table.id)] : [desc(table.created_at), desc(table.id)]))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db
      .select({ n: count() })
      .from(table as SQLiteTable)
      .where(where),
  ]);
  return { rows: rows as T['$inferSelect'][], total: Number(totals[0]?.n ?? 0) };
}
