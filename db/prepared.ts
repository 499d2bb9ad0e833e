import type { Client, InValue } from '@libsql/client';
import type { Db } from './client';

/**
 * Runs SQL on a connection that keeps each statement prepared between calls. @libsql/client
 * prepares every statement again on each execute (a multi-row insert costs as much to prepare
 * as to run), so the hot-path writes go through this when the runtime offers one. Both calls
 * answer promises and never hold the event loop on a lock: on Node a read runs at once and waits
 * out a locked database on timers, and a write commits on a thread of its own (db/write-thread.ts).
 */
export interface PreparedStatements {
  /** Runs a statement that returns no rows; answers the rows it changed and the last rowid. */
  run(sql: string, args: InValue[]): Promise<{ changes: number; lastInsertRowid: number | bigint }>;
  /** Runs a statement and returns its rows as objects keyed by column name. */
  all(sql: string, args: InValue[]): Promise<Record<string, unknown>[]>;
}

// Edge-safe on purpose: the queries import this module, and only the Node client (db/client.ts)
// registers anything, so the Worker bundle never pulls the native driver in.
const registry = new WeakMap<object, () => PreparedStatements | undefined>();

/** Offers prepared statements for `client`; `get` answers undefined once they cannot be used (client closed). */
export function registerPreparedStatements(client: Client, get: () => PreparedStatements | undefined): void {
  registry.set(client, get);
}

/** The prepared statements beside `db`'s client, or undefined (edge, remote database, closed client). */
export function preparedStatementsFor(db: Db): PreparedStatements | undefined {
  const client = (db as Db & { $client?: Client }).$client;
  return client ? registry.get(client)?.() : undefined;
}
