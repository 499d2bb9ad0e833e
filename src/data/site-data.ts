import { openDb } from '../../db/client';
import { listAllActiveServers, type Server } from '../../db/queries/servers';
import { loadEnv } from '../../functions/_app/env';

export interface SiteData {
  servers: Server[];
}

let cached: Promise<SiteData> | null = null;

/**
 * Everything the build needs, read from the database once per build (every page shares
 * the promise). An unreachable database fails the build loudly instead of publishing
 * sample data over real content.
 */
export function getSiteData(): Promise<SiteData> {
  cached ??= (async () => {
    const env = loadEnv(process.env);
    const { db, client } = await openDb({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN });
    try {
      return { servers: await listAllActiveServers(db) };
    } catch (err) {
      throw new Error(
        `The build could not read the database at ${env.DATABASE_URL.replace(/\?.*$/, '')}: ${String(err)}`,
      );
    } finally {
      client.close();
    }
  })();
  return cached;
}
