import type { Client } from '@libsql/client';

// Whole-file operations on a libSQL client (backups, restores, benchmarks): statements about the
// database file rather than its rows, run on a client the caller opened for the purpose.

/** SQLite's `PRAGMA integrity_check`: 'ok', or the problems it found, one a line. */
export async function checkIntegrity(client: Client): Promise<string> {
  const rs = await client.execute('PRAGMA integrity_check');
  return rs.rows.map((r) => String(r[0])).join('\n');
}

/** Lets SQLite itself wait up to `ms` for a lock: only for a client of a one-off script, never the app's (db/busy.ts). */
export async function setBusyTimeout(client: Client, ms: number): Promise<void> {
  await client.execute(`PRAGMA busy_timeout = ${Math.trunc(ms)}`);
}

/** Writes a compact copy of the database to `path` with VACUUM INTO: one read transaction's view, so writers carry on under WAL. */
export async function vacuumInto(client: Client, path: string): Promise<void> {
  await client.execute({ sql: 'VACUUM INTO ?', args: [path] });
}

/** Folds the write-ahead log into the database file and empties it, so the file alone is the database. */
export async function checkpointWal(client: Client): Promise<void> {
  await client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
}

/** Whether the database holds this project's tables (the servers and drizzle's migration journal). */
export async function hasProjectTables(client: Client): Promise<boolean> {
  const rs = await client.execute(
    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('discord_servers', '__drizzle_migrations')",
  );
  return Number(rs.rows[0]?.[0]) >= 2;
}

/** Drops the trigram search index (its table and the triggers that feed it) and vacuums: a benchmark's size baseline. */
export async function dropSearchIndex(client: Client): Promise<void> {
  for (const t of ['discord_servers_fts_ai', 'discord_servers_fts_ad', 'discord_servers_fts_au']) {
    await client.execute(`DROP TRIGGER IF EXISTS ${t}`);
  }
  await client.execute('DROP TABLE IF EXISTS discord_servers_fts');
  await client.execute('VACUUM');
}

/** Tables a benchmark counts rows of. */
export type CountedTable = 'discord_servers' | 'user_interactions' | 'server_submissions';

/** Rows in one of the project's tables. */
export async function countRows(client: Client, table: CountedTable): Promise<number> {
  return Number((await client.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n ?? 0);
}

/** The ids of the first `limit` servers by id, listed or not: targets for generated events. */
export async function firstServerIds(client: Client, limit: number): Promise<number[]> {
  const rs = await client.execute({ sql: 'SELECT id FROM discord_servers ORDER BY id LIMIT ?', args: [limit] });
  return rs.rows.map((r) => Number(r.id));
}
