import type { Client, InValue } from '@libsql/client';
import { Placeholder } from 'drizzle-orm';
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
// One registry per process, kept on globalThis: the build's server entry (the pages rendered on
// request, #18) bundles a copy of this module of its own, and its reads must find the statements
// the server's client registered in this one.
const REGISTRY = Symbol.for('guildrank.preparedStatements');
type Registry = WeakMap<object, () => PreparedStatements | undefined>;
const shared = globalThis as { [REGISTRY]?: Registry };
shared[REGISTRY] ??= new WeakMap();
const registry: Registry = shared[REGISTRY];

/** Offers prepared statements for `client`; `get` answers undefined once they cannot be used (client closed). */
export function registerPreparedStatements(client: Client, get: () => PreparedStatements | undefined): void {
  registry.set(client, get);
}

/** The prepared statements beside `db`'s client, or undefined (edge, remote database, closed client). */
export function preparedStatementsFor(db: Db): PreparedStatements | undefined {
  const client = (db as Db & { $client?: Client }).$client;
  return client ? registry.get(client)?.() : undefined;
}

/** A query drizzle built once (`toSQL()`), its arguments as `sql.placeholder(name)`. */
export interface BuiltQuery {
  sql: string;
  params: unknown[];
}

/**
 * The rows of a query built once, its placeholders filled from `values`: on the native prepared
 * connection when the runtime offers one (Node, a file database), else through the client (the
 * Worker's Turso). Rows are keyed by column name and hold the stored values, not decoded: the
 * caller decodes as drizzle would (server-rows.ts for discord_servers). A hot read so costs an
 * index lookup, not drizzle's query building and @libsql/client's prepare on every call.
 */
export async function readBuilt(
  db: Db,
  query: BuiltQuery,
  values: Record<string, InValue>,
): Promise<Record<string, unknown>[]> {
  const args = query.params.map((p) => {
    if (!(p instanceof Placeholder)) return p as InValue;
    const value = values[p.name];
    if (value === undefined) throw new Error(`No value for the placeholder ${p.name}`);
    return value;
  });
  const prepared = preparedStatementsFor(db);
  if (prepared) return prepared.all(query.sql, args);
  const { rows } = await (db as Db & { $client: Client }).$client.execute({ sql: query.sql, args });
  return rows as unknown as Record<string, unknown>[];
}
