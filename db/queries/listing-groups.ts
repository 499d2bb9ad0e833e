import type { Client, Transaction } from '@libsql/client';
import { and, eq, gt, notInArray, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/sqlite-core';
import { isListedCategory } from '../../src/lib/categories';
import { isListed, matchesSubcategory, UNLISTED_INVITE_STATUSES } from '../../src/lib/listing';
import type { Db } from '../client';
import { type BuiltQuery, readBuilt } from '../prepared';
import { listingGroups } from '../schema';

/** A listing's servers as listing_groups counts them: every listed server, a category, or a subcategory of one. */
export interface GroupedListing {
  category?: string | undefined;
  subcategory?: string | undefined;
}

/** What listing_groups says of one listing: what its outline and its first page need besides its rows. */
export interface ListingSummary {
  /** How many servers it lists, and their members and active users summed. */
  servers: number;
  members: number;
  active: number;
  /** How many of them are paid placements (isPaidPlacement). */
  paid: number;
  /** The distinct regions its servers name (none left out), unordered. */
  regions: string[];
}

/** One row of listing_groups, as read. */
export type ListingGroup = typeof listingGroups.$inferSelect;

/** Every non-empty group (a few hundred rows whatever the number of listings). */
export async function readListingGroups(db: Db): Promise<ListingGroup[]> {
  return db.select().from(listingGroups).where(gt(listingGroups.servers, 0));
}

/** The groups of listed servers (isListed: active, a listed category, a working invite). */
const listedGroups = (groups: readonly ListingGroup[]) =>
  groups.filter((g) =>
    isListed({
      is_active: g.is_active,
      category: g.category,
      invite_status: g.invite_status as Parameters<typeof isListed>[0]['invite_status'],
    }),
  );

/** One listing's summary from the groups, by the listing's own rules (matchesSubcategory reads '' as none). */
export function summarize(groups: readonly ListingGroup[], listing: GroupedListing): ListingSummary {
  const summary: ListingSummary = { servers: 0, members: 0, active: 0, paid: 0, regions: [] };
  const regions = new Set<string>();
  for (const g of listedGroups(groups)) {
    if (listing.category && g.category !== listing.category) continue;
    if (listing.subcategory && !matchesSubcategory(g.subcategory, listing.subcategory)) continue;
    summary.servers += g.servers;
    summary.members += g.members;
    summary.active += g.active_users;
    if (g.paid) summary.paid += g.servers;
    if (g.region) regions.add(g.region);
  }
  summary.regions = [...regions];
  return summary;
}

/** How many servers a category lists now (isListed), summed over its listing_groups rows: a few rows at any size. */
export async function countListedInCategory(db: Db, category: string): Promise<number> {
  if (!isListedCategory(category)) return 0;
  const [row] = await readBuilt(db, listedInCategory(), { category });
  return Number(row?.n ?? 0);
}

/**
 * countListedInCategory's read, built once: every scored server page rendered on request reads it
 * (src/data/server-page.ts), and drizzle's query building cost about 0.3 ms of CPU a call.
 */
let listedInCategoryQuery: BuiltQuery | undefined;
const listedInCategory = (): BuiltQuery =>
  (listedInCategoryQuery ??= new QueryBuilder()
    .select({ n: sql<number>`coalesce(sum(${listingGroups.servers}), 0)`.as('n') })
    .from(listingGroups)
    .where(
      and(
        eq(listingGroups.category, sql.placeholder('category')),
        eq(listingGroups.is_active, true),
        notInArray(listingGroups.invite_status, [...UNLISTED_INVITE_STATUSES]),
      ),
    )
    .toSQL());

/** Listed servers and their members per category, from the groups (the home page's tiles). */
export function categorySums(
  groups: readonly ListingGroup[],
): { category: string; servers: number; members: number }[] {
  const sums = new Map<string, { category: string; servers: number; members: number }>();
  for (const g of listedGroups(groups)) {
    const s = sums.get(g.category) ?? { category: g.category, servers: 0, members: 0 };
    s.servers += g.servers;
    s.members += g.members;
    sums.set(g.category, s);
  }
  return [...sums.values()];
}

/**
 * Fills listing_groups again from discord_servers, in the caller's transaction: after a bulk load
 * that set the triggers keeping it aside (db/queries/bulk-load.ts). The statements of migration 0016's fill.
 */
export async function refillListingGroups(tx: Transaction | Client): Promise<void> {
  await tx.execute('DELETE FROM listing_groups');
  await tx.execute(
    `INSERT INTO listing_groups (is_active, category, subcategory, invite_status, region, paid, servers, members, active_users)
     SELECT is_active, category, ifnull(subcategory, ''), invite_status, ifnull(region, ''), (is_premium OR is_sponsored), count(*), sum(members), sum(active_users)
     FROM discord_servers GROUP BY 1, 2, 3, 4, 5, 6`,
  );
}
