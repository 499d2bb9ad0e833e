import type { Client } from '@libsql/client';
import { type Db, openDb } from '../../db/client';
import { migrateDb } from '../../db/migrate';
import { type Env, processEnv } from '../../functions/_app/env';

/**
 * A command-line run's database: DATABASE_URL (default file:db/local.db), migrated; close it with
 * `close()`. `env` replaces the process's settings (a mail script passes them with npm start's secrets).
 */
export async function openMigratedDatabase(
  env: Env = processEnv(),
): Promise<{ db: Db; client: Client; env: Env; close: () => void }> {
  const { db, client } = await openDb({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN });
  try {
    await migrateDb(db);
  } catch (err) {
    client.close();
    throw err;
  }
  return { db, client, env, close: () => client.close() };
}

/** DATABASE_URL as a log line may show it: without its query (which may carry a token). */
export const displayUrl = (url: string): string => url.replace(/\?.*$/, '');
