import { resolve } from 'node:path';
import type { Client } from '@libsql/client';
import type { Db } from '../../db/client';
import { type Env, loadEnv, rawProcessEnv } from '../../functions/_app/env';
import { localSecrets } from '../../functions/_app/local-secrets';
import { openMigratedDatabase } from './database';

/**
 * The settings and database of a mail script, with `npm start`'s secrets: SESSION_SECRET signs the
 * links of the mails, so a script must sign with the one the running site verifies (from the
 * environment, else the git-ignored .local-secrets.json npm start keeps).
 */
export async function openMailScript(): Promise<{ db: Db; client: Client; env: Env; close: () => void }> {
  const given = rawProcessEnv();
  return openMigratedDatabase(loadEnv({ ...localSecrets(resolve('.local-secrets.json'), given), ...given }));
}
