import { resolve } from 'node:path';
import type { Client } from '@libsql/client';
import { type Db, openDb } from '../../db/client';
import { migrateDb } from '../../db/migrate';
import { type Env, loadEnv, rawProcessEnv } from '../../functions/_app/env';
import { localSecrets } from '../../functions/_app/local-secrets';

/**
 * The settings and database of a mail script, with `npm start`'s secrets: SESSION_SECRET signs the
 * links of the mails, so a script must sign with the one the running site verifies (from the
 * environment, else the git-ignored .local-secrets.json npm start keeps).
 */
export async function openMailScript(): Promise<{ db: Db; client: Client; env: Env; close: () => void }> {
  const given = rawProcessEnv();
  const env = loadEnv({ ...localSecrets(resolve('.local-secrets.json'), given), ...given });
  const { db, client } = await openDb({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN });
  try {
    await migrateDb(db);
  } catch (err) {
    client.close();
    throw err;
  }
  return { db, client, env, close: () => client.close() };
}
