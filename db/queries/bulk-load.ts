import type { Client, InStatement, InValue, Transaction } from '@libsql/client';
import { setReadCache } from './connection';
import { refillListingGroups } from './listing-groups';
import type { BulkServer } from './servers';

// Loading a great many servers at once (db:fake, the benchmarks): SQLite builds an index far
// faster in one sorted pass than row by row, so a large load sets the table's indexes and search
// triggers aside, inserts, rebuilds the search index and recreates the indexes, all in one
// transaction: a load that fails or is stopped leaves the database as it was.

/** The FTS5 table over discord_servers that the triggers keep in step (migrations 0001 and 0009). */
const SEARCH_TABLE = 'discord_servers_fts';
/** Rows per INSERT statement (16 columns: well under SQLite's 32,766 parameters). */
const ROWS_PER_STATEMENT = 500;
/** The loading connection's page cache while the load runs, in KiB (SQLite's negative cache_size). */
const LOAD_CACHE_KIB = 512 * 1024;

const asValue = (value: unknown): InValue =>
  Array.isArray(value) ? JSON.stringify(value) : typeof value === 'boolean' ? Number(value) : (value as InValue);

/** Multi-row INSERTs for one chunk of servers. */
function insertStatements(rows: readonly BulkServer[]): InStatement[] {
  const first = rows[0];
  if (!first) return [];
  const columns = Object.keys(first) as (keyof BulkServer)[];
  const placeholders = `(${columns.map(() => '?').join(', ')})`;
  const statements: InStatement[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    statements.push({
      sql: `INSERT INTO discord_servers (${columns.join(', ')}) VALUES ${chunk.map(() => placeholders).join(', ')}`,
      args: chunk.flatMap((row) => columns.map((c) => asValue(row[c]))),
    });
  }
  return statements;
}

/**
 * Inserts `count` servers made by `rowAt(k)`, `chunk` at a time (memory stays flat), into a file
 * database in one write transaction with the table's indexes and triggers set aside and rebuilt
 * at the end. Same rows, same indexes, same search index as inserting them one by one.
 */
export async function loadServersInBulk(
  client: Client,
  count: number,
  rowAt: (k: number) => BulkServer,
  chunk = 20_000,
): Promise<void> {
  await client.execute(`PRAGMA cache_size = -${LOAD_CACHE_KIB}`);
  const tx: Transaction = await client.transaction('write');
  try {
    const aside = await tx.execute(
      "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'discord_servers' AND type IN ('index', 'trigger') AND sql IS NOT NULL",
    );
    const kept = aside.rows.map((r) => ({ type: String(r.type), name: String(r.name), sql: String(r.sql) }));
    for (const o of kept) await tx.execute(`DROP ${o.type === 'index' ? 'INDEX' : 'TRIGGER'} "${o.name}"`);
    for (let start = 0; start < count; start += chunk) {
      const rows = Array.from({ length: Math.min(chunk, count - start) }, (_, k) => rowAt(start + k));
      await tx.batch(insertStatements(rows));
    }
    await tx.execute(`INSERT INTO ${SEARCH_TABLE}(${SEARCH_TABLE}) VALUES ('rebuild')`);
    for (const o of kept) await tx.execute(o.sql);
    // The counts the triggers keep (listing_groups) missed these rows: counted again in one pass.
    await refillListingGroups(tx);
    await tx.commit();
  } finally {
    tx.close();
    await setReadCache(client);
  }
}
