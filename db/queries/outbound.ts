import { and, eq, inArray, notInArray } from 'drizzle-orm';
import { CATEGORY_NAMES } from '../../src/lib/categories';
import { PAGELESS_INVITE_STATUSES } from '../../src/lib/listing';
import type { Db } from '../client';
import { discordServers } from '../schema';

/** What the join redirect and the event handler need to know about a server. */
export interface ServerFlags {
  id: number;
  slug: string;
  affiliate_link: string | null;
  is_premium: boolean;
  is_sponsored: boolean;
  is_active: boolean;
}

const flagColumns = {
  id: discordServers.id,
  slug: discordServers.slug,
  affiliate_link: discordServers.affiliate_link,
  is_premium: discordServers.is_premium,
  is_sponsored: discordServers.is_sponsored,
  is_active: discordServers.is_active,
};

/**
 * The active, listed server with exactly this stored slug (one indexed read, no fuzzy fallback), or
 * null: a server of an unlisted category (the Education sample), or whose invite now opens another
 * guild (hasPage in src/lib/listing.ts), has no page and is never joined.
 */
export async function getJoinTarget(db: Db, slug: string): Promise<ServerFlags | null> {
  const [row] = await db
    .select(flagColumns)
    .from(discordServers)
    .where(
      and(
        eq(discordServers.slug, slug),
        eq(discordServers.is_active, true),
        inArray(discordServers.category, [...CATEGORY_NAMES]),
        notInArray(discordServers.invite_status, [...PAGELESS_INVITE_STATUSES]),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Flags of the servers with these ids (any state), keyed by id. */
export async function getServerFlags(db: Db, ids: readonly number[]): Promise<Map<number, ServerFlags>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.select(flagColumns).from(discordServers).where(inArray(discordServers.id, unique));
  return new Map(rows.map((r) => [r.id, r]));
}
