import { type Client, createClient } from '@libsql/client';
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql';
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
  }
  return client;
}

/** Wraps a libSQL client (Node or web) in drizzle with the schema. */
export const toDb = (client: Client): Db => drizzle(client, { schema });

/** Opens the database at `config.url` and returns drizzle plus the raw client. */
export async function openDb(config: DbConfig): Promise<{ db: Db; client: Client }> {
  const client = await openClient(config);
  return { db: toDb(client), client };
}
