import type { Db } from './client';
import { CONTENT_DEFAULTS } from './content-defaults';
import { countServers } from './queries/servers';
import { SAMPLE_SERVERS } from './sample-data';
import { discordServers, siteContent } from './schema';

/** Writes the sample servers and content defaults into an empty database; true when it seeded. */
export async function seedIfEmpty(db: Db): Promise<boolean> {
  if ((await countServers(db)) > 0) return false;
  await db.batch([
    db.insert(discordServers).values(SAMPLE_SERVERS),
    db.insert(siteContent).values(CONTENT_DEFAULTS).onConflictDoNothing(),
  ]);
  return true;
}
