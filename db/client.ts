import { fileURLToPath } from 'node:url';
import {
  type Client,
  createClient,
  type InArgs,
  type InStatement,
  LibsqlError,
  type Replicated,
  type ResultSet,
  type Transaction,
  type TransactionMode,
} from '@libsql/client';
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql';
import NativeDatabase from 'libsql';
import { BUSY_BUDGET_MS, isBusyError, registerWriteProbe, retryWhileBusy } from './busy';
import { type PreparedStatements, registerPreparedStatements } from './prepared';
import { READ_CACHE_PRAGMA, setReadCache } from './queries/connection';
import * as schema from './schema';
import { writeThread } from './write-thread';

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
 * write lock. Statements fail at once instead and are retried on timers (LockTolerantClient).
 */
export async function openClient(config: DbConfig): Promise<Client> {
  const isFile = config.url.startsWith('file:');
  const client = createClient({
    url: config.url,
    ...(config.authToken ? { authToken: config.authToken } : {}),
    // Busy timeout 0: SQLite answers SQLITE_BUSY at once rather than sleeping on the event loop.
    ...(isFile ? { timeout: 0 } : {}),
  });
  if (!isFile) return client;
  const tolerant = new LockTolerantClient(client);
  await tolerant.execute('PRAGMA journal_mode = WAL');
  await tolerant.execute('PRAGMA synchronous = NORMAL');
  await setReadCache(tolerant);
  registerWriteProbe(tolerant, () => tolerant.probeWriteLock());
  const path = plainFilePath(config.url);
  if (path) {
    const prepared = nativePreparedStatements(path, tolerant);
    registerPreparedStatements(tolerant, prepared.get);
    tolerant.whenClosed(prepared.retire);
  }
  return tolerant;
}

/**
 * The file client drizzle and the queries call: the same methods as the libSQL client, delegated
 * to it, but a locked database is waited out on timers. execute, batch, migrate and the start of
 * a transaction are retried while SQLITE_BUSY (each either runs whole or changes nothing).
 * Statements inside an interactive transaction and executeMultiple scripts are not retried:
 * SQLite advises rolling such a transaction back, and a script may have committed part of itself.
 *
 * The native driver leaves a statement that failed with SQLITE_BUSY un-reset until it is
 * garbage-collected, and its connection then keeps an old snapshot: later reads there are stale
 * and later writes fail with SQLITE_BUSY_SNAPSHOT. So after a busy failure the pool's connections
 * are replaced (`reconnect`) before the next operation, once no transaction holds one.
 */
class LockTolerantClient implements Client {
  private stale = false;
  private openTransactions = 0;
  private readonly closers: (() => void)[] = [];

  constructor(private readonly inner: Client) {}

  get closed(): boolean {
    return this.inner.closed;
  }
  get protocol(): string {
    return this.inner.protocol;
  }

  execute(stmt: InStatement): Promise<ResultSet>;
  execute(sql: string, args?: InArgs): Promise<ResultSet>;
  execute(stmt: InStatement | string, args?: InArgs): Promise<ResultSet> {
    return this.retried(() => (typeof stmt === 'string' ? this.inner.execute(stmt, args) : this.inner.execute(stmt)));
  }
  batch(stmts: Array<InStatement | [string, InArgs?]>, mode?: TransactionMode): Promise<ResultSet[]> {
    return this.retried(() => this.inner.batch(stmts, mode));
  }
  migrate(stmts: InStatement[]): Promise<ResultSet[]> {
    return this.retried(() => this.inner.migrate(stmts));
  }
  async executeMultiple(sql: string): Promise<void> {
    await this.freshConnections();
    return this.inner.executeMultiple(sql).catch(this.noteBusy);
  }
  transaction(mode?: TransactionMode): Promise<Transaction> {
    return this.retried(async () => {
      const tx = await this.inner.transaction(mode);
      this.openTransactions++;
      return new CountedTransaction(tx, this.noteBusy, () => this.openTransactions--);
    });
  }
  sync(): Promise<Replicated> {
    return this.inner.sync();
  }
  close(): void {
    this.inner.close();
    for (const retire of this.closers.splice(0)) retire();
  }
  /** Runs `retire` when the client closes (what was opened beside it: the prepared connection, the write thread). */
  whenClosed(retire: () => void): void {
    this.closers.push(retire);
  }
  reconnect(): void {
    this.inner.reconnect();
  }

  /** Takes the write lock and gives it back at once, failing rather than waiting if it is held (health). */
  async probeWriteLock(): Promise<void> {
    await this.freshConnections();
    const tx = await this.inner.transaction('write').catch(this.noteBusy);
    await tx.rollback();
  }

  private readonly noteBusy = (err: unknown): never => {
    if (isBusyError(err)) this.stale = true;
    throw err;
  };

  /** Replaces the pool's connections after a busy failure, once no transaction holds one. */
  private async freshConnections(): Promise<void> {
    if (!this.stale || this.openTransactions > 0 || this.inner.closed) return;
    this.stale = false;
    await this.inner.reconnect();
    await this.inner.execute('PRAGMA synchronous = NORMAL');
    await setReadCache(this.inner);
  }

  private retried<T>(attempt: () => Promise<T>): Promise<T> {
    return retryWhileBusy(
      async () => {
        await this.freshConnections();
        return attempt().catch(this.noteBusy);
      },
      BUSY_BUDGET_MS,
      // `reconnect` closes a connection another operation has borrowed but not used yet; that
      // operation changed nothing, so it is retried like a busy one.
      (err) =>
        isBusyError(err) || (!this.inner.closed && /in flight/.test(String((err as { message?: unknown })?.message))),
    );
  }
}

/** An interactive transaction that notes busy failures and tells its client when it settles. */
class CountedTransaction implements Transaction {
  private settled = false;

  constructor(
    private readonly inner: Transaction,
    private readonly noteBusy: (err: unknown) => never,
    private readonly onSettle: () => void,
  ) {}

  get closed(): boolean {
    return this.inner.closed;
  }

  execute(stmt: InStatement): Promise<ResultSet> {
    return this.inner.execute(stmt).catch(this.noteBusy);
  }
  batch(stmts: InStatement[]): Promise<ResultSet[]> {
    return this.inner.batch(stmts).catch(this.noteBusy);
  }
  executeMultiple(sql: string): Promise<void> {
    return this.inner.executeMultiple(sql).catch(this.noteBusy);
  }
  commit(): Promise<void> {
    return this.inner.commit().finally(this.settle);
  }
  rollback(): Promise<void> {
    return this.inner.rollback().finally(this.settle);
  }
  close(): void {
    try {
      this.inner.close();
    } finally {
      this.settle();
    }
  }

  private readonly settle = (): void => {
    if (!this.settled) this.onSettle();
    this.settled = true;
  };
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
 * prepared. It uses `libsql`, the native driver @libsql/client itself runs file databases on,
 * declared at the version the client resolves (one build of it in node_modules). Closing the
 * client retires it.
 *
 * Reads (`all`) run on it here: like the client, it never waits on a lock inside SQLite (busy
 * timeout 0) and retries on timers. A busy failure leaves the failed statement un-reset (see
 * LockTolerantClient), so the connection and its statements are dropped then and opened afresh by
 * the next attempt. Writes (`run`) go to a connection on a thread of their own (db/write-thread.ts).
 */
function nativePreparedStatements(
  path: string,
  client: Client,
): { get: () => PreparedStatements | undefined; retire: () => void } {
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
      conn = new NativeDatabase(path, { timeout: 0 });
      conn.exec('PRAGMA synchronous = NORMAL');
      conn.exec('PRAGMA foreign_keys = ON');
      // The same page cache as the client's connections: badge and build reads run here.
      conn.exec(READ_CACHE_PRAGMA);
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
  // Writes commit on a thread of their own (db/write-thread.ts), so the disk's time is not the event loop's.
  const writes = writeThread(path);
  const api: PreparedStatements = {
    run: (sql, args) => writes.run(sql, args),
    all: (sql, args) => attempt(() => statement(sql).all(args) as Record<string, unknown>[]),
  };
  const retire = () => {
    drop();
    writes.close();
  };
  return {
    get: () => {
      if (!client.closed) return api;
      retire();
      return undefined;
    },
    retire,
  };
}

/** Wraps a libSQL client (Node or web) in drizzle with the schema. */
export const toDb = (client: Client): Db => drizzle(client, { schema });

/** Opens the database at `config.url` and returns drizzle plus the raw client. */
export async function openDb(config: DbConfig): Promise<{ db: Db; client: Client }> {
  const client = await openClient(config);
  return { db: toDb(client), client };
}
