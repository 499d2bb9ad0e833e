import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { type Client, createClient } from '@libsql/client';
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql';
import type NativeDatabase from 'libsql';
import { type PreparedStatements, registerPreparedStatements } from './prepared';
import * as schema from './schema';

/** The drizzle database the app, the build and the scripts share. */
export type Db = LibSQLDatabase<typeof schema>;

export interface DbConfig {
  /** `file:path.db`, `libsql://...` or `https://...`. */
  url: string;
  authToken?: string | undefined;
}

/** Default location of the embedded database. */
export const DEFAULT_DATABASE_URL = 'file:db/local.db';

/** Milliseconds a writer waits on a locked file database before failing. */
const BUSY_TIMEOUT_MS = 5000;

/**
 * Opens a Node libSQL client. File databases run in WAL mode with foreign keys on
 * and a busy timeout, on every pooled connection.
 */
export async function openClient(config: DbConfig): Promise<Client> {
  const isFile = config.url.startsWith('file:');
  const client = createClient({
    url: config.url,
    ...(config.authToken ? { authToken: config.authToken } : {}),
    ...(isFile ? { timeout: BUSY_TIMEOUT_MS } : {}),
  });
  if (isFile) {
    await client.execute('PRAGMA journal_mode = WAL');
    await client.execute('PRAGMA synchronous = NORMAL');
    const path = plainFilePath(config.url);
    if (path) registerPreparedStatements(client, nativePreparedStatements(path, client));
  }
  return client;
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
 */
function nativePreparedStatements(path: string, client: Client): () => PreparedStatements | undefined {
  let conn: NativeDatabase.Database | undefined;
  let api: PreparedStatements | undefined;
  const statements = new Map<string, NativeDatabase.Statement>();
  const statement = (sql: string) => {
    let st = statements.get(sql);
    if (!st) {
      st = conn!.prepare(sql);
      if (statements.size < MAX_PREPARED) statements.set(sql, st);
    }
    return st;
  };
  return () => {
    if (client.closed) {
      conn?.close();
      conn = undefined;
      api = undefined;
      statements.clear();
      return undefined;
    }
    if (!api) {
      const require = createRequire(createRequire(import.meta.url).resolve('@libsql/client'));
      const Database = require('libsql') as typeof NativeDatabase;
      conn = new Database(path, { timeout: BUSY_TIMEOUT_MS });
      conn.exec('PRAGMA synchronous = NORMAL');
      conn.exec('PRAGMA foreign_keys = ON');
      api = {
        run: (sql, args) => {
          const { changes, lastInsertRowid } = statement(sql).run(args);
          return { changes, lastInsertRowid };
        },
        all: (sql, args) => statement(sql).all(args) as Record<string, unknown>[],
      };
    }
    return api;
  };
}

/** Wraps a libSQL client (Node or web) in drizzle with the schema. */
export const toDb = (client: Client): Db => drizzle(client, { schema });

/** Opens the database at `config.url` and returns drizzle plus the raw client. */
export async function openDb(config: DbConfig): Promise<{ db: Db; client: Client }> {
  const client = await openClient(config);
  return { db: toDb(client), client };
}
