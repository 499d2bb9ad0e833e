import type { Db } from '../../db/client';
import { categorySums, readListingGroups } from '../../db/queries/listing-groups';
import { type ListingRow, paidListingHead } from '../../db/queries/servers';
import { LIMITS } from '../lib/enums';
import type { RegionChoice } from '../lib/regions';
import { listingPageFromDb } from './listing-page';

/**
 * What the home page shows of the listings, read from the database (homeFromDb) by the build and
 * by the incremental publish (functions/_app/site-publish.ts) alike, so both write the same HTML.
 */
export interface HomePage {
  /** How many servers are listed. */
  total: number;
  /** Premium Picks: premium or sponsored, curated order, up to LIMITS.premiumGrid. */
  premium: ListingRow[];
  /** Listed servers and their members per category (the tiles). */
  counts: Record<string, { servers: number; members: number }>;
  /** The home list's first cards as the API answers them: paid cards at most one in five. */
  first: ListingRow[];
  /** The regions the listed servers name, for the filter bar. */
  regions: RegionChoice[];
  /** The JSON-LD list: the first LIMITS.structuredData servers in members order. */
  structured: ListingRow[];
}

/**
 * The home page's props read from the database: the first page of the list of every server
 * (placed as the build places it: its cards, JSON-LD list and regions), the per-category sums
 * and Premium Picks. `generation` as listingPageFromDb's.
 */
export async function homeFromDb(db: Db, generation?: number): Promise<HomePage> {
  const [all, groups, premium] = await Promise.all([
    listingPageFromDb(db, {}, 1, generation),
    readListingGroups(db),
    paidListingHead(db, LIMITS.premiumGrid),
  ]);
  const counts: HomePage['counts'] = {};
  for (const t of categorySums(groups)) counts[t.category] = { servers: t.servers, members: t.members };
  return {
    total: all?.stats?.servers ?? 0,
    premium,
    counts,
    first: (all?.shown ?? []).slice(0, LIMITS.homeList),
    regions: all?.regions ?? [],
    structured: all?.structured ?? [],
  };
}
