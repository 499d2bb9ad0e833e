import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Db } from './client';
import { CONTENT_DEFAULTS, SAMPLE_SERVERS } from './sample-data';
import { discordServers, siteContent } from './schema';

/** Writes the sample servers and content defaults into an empty database; true when it seeded. */
export async function seedIfEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(discordServers);
  if (Number(row?.n ?? 0) > 0) return false;
  await db.batch([
    db.insert(discordServers).values(SAMPLE_SERVERS),
    db.insert(siteContent).values(CONTENT_DEFAULTS).onConflictDoNothing(),
  ]);
  return true;
}

// `npm run db:seed`: migrate and seed DATABASE_URL if it is empty.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { loadEnv } = await import('../functions/_app/env');
  const { openDb } = await import('./client');
  const { migrateDb } = await import('./migrate');
  const env = loadEnv(process.env);
  const { db, client } = await openDb({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN });
  await migrateDb(db);
  console.log((await seedIfEmpty(db)) ? 'Seeded the sample servers.' : 'Database already has servers; left as is.');
  client.close();
}
