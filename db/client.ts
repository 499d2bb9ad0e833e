import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { type Client, createClient, LibsqlError, type TransactionMode } from '@libsql/client';
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql';
import type NativeDatabase from 'libsql';
import { BUSY_BUDGET_MS, isBusyError, registerWriteProbe, retryWhileBusy } from './busy';
import { type PreparedStatements, registerPreparedStatements } from './prepared';
import { setReadCache } from './queries/connection';
import * as schema from './schema';

/** The drizzle database the app, the build and the scripts share. */
export type Db = LibSQLDatabase<typeof schema>;

export interface DbConfig {
  /** `file:path.db`, `libsql://...` or `https://...`. */
  url: string;
  authToken?: string | undefined;
}

/**
 * Opens a Node libSQL client. File databases run in WAL mode with foreign keys on, and never
 * wait on a lock inside SQLite: the native driver is synchronous, so its busy timeout would hold
 * the whole event loop (pages, health, every request) for as long as another process holds the
 * write lock. Statements fail at once instead and are retried on timers (db/busy.ts).
 */
export async function openClient(config: DbConfig): Promise<Client> {
  const isFile = config.url.startsWith('file:');
  const client = createClient({
    url: config.url,
    ...(config.authToken ? { authToken: config.authToken } : {}),
    // Busy timeout 0: SQLite answers SQLITE_BUSY at once rather than sleeping on the event loop.
    ...(isFile ? { timeout: 0 } : {}),
  });
  if (isFile) {
    retryLockedStatements(client);
    await client.execute('PRAGMA journal_mode = WAL');
    await client.execute('PRAGMA synchronous = NORMAL');
    await setReadCache(client);
    const path = plainFilePath(config.url);
    if (path) registerPreparedStatements(client, nativePreparedStatements(path, client));
  }
  return client;
}

/** A client method that returns a promise (execute, batch, transaction...). */
type AsyncMethod = (...args: never[]) => Promise<unknown>;

/** Replaces the client's own `name` method with `wrap(original)` (the instance keeps its identity for drizzle and the registries). */
function wrapMethod(target: object, name: string, wrap: (original: AsyncMethod) => AsyncMethod): void {
  const methods = target as Record<string, AsyncMethod>;
  methods[name] = wrap(methods[name]!.bind(target));
}

/**
 * Makes the file client wait out a locked database on timers: execute, batch, migrate and the
 * start of a transaction are retried while SQLITE_BUSY (each either runs whole or changes nothing).
 * Statements inside an interactive transaction and executeMultiple scripts are not retried:
 * SQLite advises rolling such a transaction back, and a script may have committed part of itself.
 *
 * The native driver leaves a statement that failed with SQLITE_BUSY un-reset until it is
 * garbage-collected, and its connection then keeps an old snapshot: later reads there are stale
 * and later writes fail with SQLITE_BUSY_SNAPSHOT. So after a busy failure the pool's connections
 * are replaced (`reconnect`) before the next operation, once no transaction holds one.
 */
function retryLockedStatements(client: Client): void {
  let stale = false;
  let openTransactions = 0;
  const execute = client.execute.bind(client);
  const transaction = client.transaction.bind(client);

  const freshConnections = async () => {
    if (!stale || openTransactions > 0 || client.closed) return;
    stale = false;
    await client.reconnect();
    await execute('PRAGMA synchronous = NORMAL');
    await setReadCache({ execute });
  };
  const noteBusy = (err: unknown) => {
    if (isBusyError(err)) stale = true;
    throw err;
  };
  const observed =
    (original: AsyncMethod): AsyncMethod =>
    (...args) =>
      original(...args).catch(noteBusy);
  // `reconnect` closes a connection another operation has borrowed but not used yet; that
  // operation changed nothing, so it is retried like a busy one.
  const retryable = (err: unknown) =>
    isBusyError(err) || (!client.closed && /in flight/.test(String((err as { message?: unknown })?.message)));
  const retried =
    (original: AsyncMethod): AsyncMethod =>
    (...args) =>
      retryWhileBusy(
        async () => {
          if (stale) await freshConnections();
          return original(...args).catch(noteBusy);
        },
        BUSY_BUDGET_MS,
        retryable,
      );

  for (const name of ['execute', 'batch', 'migrate']) wrapMethod(client, name, retried);
  wrapMethod(client, 'executeMultiple', (original) => async (...args) => {
    if (stale) await freshConnections();
    return observed(original)(...args);
  });
  wrapMethod(client, 'transaction', () =>
    retried(async (mode?: TransactionMode) => {
      const tx = await transaction(mode);
      openTransactions++;
      let settled = false;
      const settle = () => {
        if (!settled) openTransactions--;
        settled = true;
      };
      for (const name of ['execute', 'batch', 'executeMultiple']) wrapMethod(tx, name, observed);
      const commit = tx.commit.bind(tx);
      const rollback = tx.rollback.bind(tx);
      const close = tx.close.bind(tx);
      tx.commit = () => commit().finally(settle);
      tx.rollback = () => rollback().finally(settle);
      tx.close = () => {
        try {
          close();
        } finally {
          settle();
        }
      };
      return tx;
    }),
  );

  // Health: take the write lock and give it back at once, failing rather than waiting if it is held.
  registerWriteProbe(client, async () => {
    if (stale) await freshConnections();
    const tx = await transaction('write').catch(noteBusy);
    await tx.rollback();
  });
}

/** The path of a plain `file:` URL; undefined for in-memory databases and URLs with options. */
function plainFilePath(url: string): string | undefined {
  if (url.includes('?') || url.includes('%') || url.includes(':memory:')) return undefined;
  return url.startsWith('file://') ? fileURLToPath(url) : url.slice('file:'.length);
}

/** Distinct statements kept prepared per database (one per batch size of each hot-path insert). */
const MAX_PREPARED = 128;

/**
 * A second connection to the same file, opened on first use, that keeps hot-path statements
 * prepared. It uses the native driver @libsql/client itself runs file databases on (resolved
 * through the client, so both are one build). Closing the client retires it.
 *
 * Like the client, it never waits on a lock inside SQLite (busy timeout 0) and retries on timers.
 * A busy failure leaves the failed statement un-reset (see retryLockedStatements), so the
 * connection and its statements are dropped then and opened afresh by the next attempt.
 */
function nativePreparedStatements(path: string, client: Client): () => PreparedStatements | undefined {
  let conn: NativeDatabase.Database | undefined;
  const statements = new Map<string, NativeDatabase.Statement>();
  const drop = () => {
    statements.clear();
    conn?.close();
    conn = undefined;
  };
  const connection = () => {
    if (client.closed) {
      drop();
      throw new LibsqlError('The client is closed', 'CLIENT_CLOSED');
    }
    if (!conn) {
      const require = createRequire(createRequire(import.meta.url).resolve('@libsql/client'));
      const Database = require('libsql') as typeof NativeDatabase;
      conn = new Database(path, { timeout: 0 });
      conn.exec('PRAGMA synchronous = NORMAL');
      conn.exec('PRAGMA foreign_keys = ON');
    }
    return conn;
  };
  const statement = (sql: string) => {
    let st = statements.get(sql);
    if (!st) {
      st = connection().prepare(sql);
      if (statements.size < MAX_PREPARED) statements.set(sql, st);
    }
    return st;
  };
  /** Runs `use` on the connection, retrying on timers while the database is locked. */
  const attempt = <T>(use: () => T): Promise<T> =>
    retryWhileBusy(() => {
      try {
        return use();
      } catch (err) {
        if (isBusyError(err)) drop();
        throw err;
      }
    });
  const api: PreparedStatements = {
    run: (sql, args) =>
      attempt(() => {
        const { changes, lastInsertRowid } = statement(sql).run(args);
        return { changes, lastInsertRowid };
      }),
    all: (sql, args) => attempt(() => statement(sql).all(args) as Record<string, unknown>[]),
  };
  return () => {
    if (!client.closed) return api;
    drop();
    return undefined;
  };
}

/** Wraps a libSQL client (Node or web) in drizzle with the schema. */
export const toDb = (client: Client): Db => drizzle(client, { schema });

/** Opens the database at `config.url` and returns drizzle plus the raw client. */
export async function openDb(config: DbConfig): Promise<{ db: Db; client: Client }> {
  const client = await openClient(config);
  return { db: toDb(client), client };
}
