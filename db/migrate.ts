import { fileURLToPath, pathToFileURL } from 'node:url';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { type Db, openDb } from './client';

/** Folder of drizzle-kit's generated migrations. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/** Applies every pending migration. Safe to run on every start. */
export async function migrateDb(db: Db): Promise<void> {
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
}

// `npm run db:migrate`: migrate DATABASE_URL (default file:db/local.db).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { loadEnv } = await import('../functions/_app/env');
  const env = loadEnv(process.env);
  const { db, client } = await openDb({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN });
  await migrateDb(db);
  client.close();
  console.log(`Migrated ${env.DATABASE_URL.replace(/\?.*$/, '')}`);
}
