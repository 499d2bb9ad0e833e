import { createClient } from '@libsql/client/web';
import { drizzle } from 'drizzle-orm/libsql/web';
import type { Db, DbConfig } from './client';
import * as schema from './schema';

/**
 * Opens the database over HTTP with `@libsql/client/web` (fetch only, no native code),
 * for the Cloudflare runtime: `libsql://`, `https://` or `http://` URLs.
 */
export function openWebDb(config: DbConfig): { db: Db; client: ReturnType<typeof createClient> } {
  if (config.url.startsWith('file:')) {
    throw new Error('The edge runtime cannot open a file database; set DATABASE_URL to libsql://… (Turso)');
  }
  const client = createClient({
    url: config.url,
    ...(config.authToken ? { authToken: config.authToken } : {}),
  });
  return { db: drizzle(client, { schema }), client };
}
