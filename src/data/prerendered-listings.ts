import type { Db } from '../../db/client';
import { type ListingGroup, summarize } from '../../db/queries/listing-groups';
import {
  listedSponsoredKeys,
  listingSlice,
  type Server,
  type SponsoredKey,
  serversByIds,
} from '../../db/queries/servers';
import { LIMITS } from '../lib/enums';
import { isPaidPlacement, matchesSubcategory } from '../lib/listing';
import { placePaid, placesAtHead } from '../lib/placement';
import { regionsOf } from '../lib/regions';
import { type ListingOf, type ListingPage, SITE_LISTINGS } from './listing-page';
import { podiumOf } from './site-data';

const size = LIMITS.categoryPageSize;

/** Whether a listed server is in the listing `filter` names (listingWhere's rule, as listing_groups applies it). */
const inListing = (s: Pick<Server, 'category' | 'subcategory'>, filter: ListingOf): boolean =>
  (!filter.category || s.category === filter.category) &&
  (!filter.subcategory || matchesSubcategory(s.subcategory, filter.subcategory));

/**
 * The prerendered pages (1 to `pages`, as many as it has) of every listing of the site (#18), by
 * the listing's path: the same props listingPageFromList gives from the whole listing, read from
 * each listing's head. A placed page stands where placePaid puts it, and placePaid over a prefix
 * of a list settles its first positions exactly (placement.test.ts), so the build reads the
 * start of each listing in its order (listingSlice; a few hundred rows) and, for the lists a
 * category's Sponsored cards lead (placesAtHead), those cards, wherever they stand in the
 * listing (listedSponsoredKeys, one read for every listing). Sizes, sums and regions come from
 * listing_groups. At 1,000,007 listings the build read every listed server's keys instead (1M
 * objects: 22 s of CPU and 600 MiB of heap) and placed every listing whole.
 */
export async function prerenderedListingPages(
  db: Db,
  groups: readonly ListingGroup[],
  pages: number,
): Promise<Map<string, ListingPage[]>> {
  const sponsored = await listedSponsoredKeys(db);
  const built = await Promise.all(
    SITE_LISTINGS.map(async (l) => {
      const heads = placesAtHead(l.filter) ? sponsored.filter((s) => inListing(s, l.filter)) : [];
      return [l.path, await listingHeadPages(db, l.filter, summarize(groups, l.filter), heads, pages)] as const;
    }),
  );
  // The Sponsored cards a page shows were placed from their keys: their rows by id, in one read.
  const rows = await serversByIds(db, [
    ...new Set(built.flatMap(([, list]) => list.flatMap((p) => p.shown.filter((s) => !isRow(s)).map((s) => s.id)))),
  ]);
  const byId = new Map(rows.map((s) => [s.id, s]));
  return new Map(
    built.map(([path, list]) => [
      path,
      // A server changed between the reads (a write while the build runs, which asks for the next
      // build) is left out of this one, as a page rendered on request leaves it (listingPageFromDb).
      list.map((p) => ({ ...p, shown: p.shown.flatMap((s) => (isRow(s) ? [s] : (byId.get(s.id) ?? []))) })),
    ]),
  );
}

/** A page of a listing as placed from the listing's rows and its Sponsored servers' keys (their rows read after). */
type PlacedPage = Omit<ListingPage, 'shown'> & { shown: (Server | SponsoredKey)[] };

/** A server's row, not only its key. */
const isRow = (s: Server | SponsoredKey): s is Server => 'slug' in s;

/**
 * The first `pages` pages of one listing from its head: `heads` are its Sponsored servers when
 * they lead it (every one of them, listing order), else none. Reads the listing's first rows,
 * twice as many until every position of those pages is settled.
 */
async function listingHeadPages(
  db: Db,
  filter: ListingOf,
  summary: ReturnType<typeof summarize>,
  heads: readonly SponsoredKey[],
  pages: number,
): Promise<PlacedPage[]> {
  const total = summary.servers;
  const last = Math.max(1, Math.ceil(total / size));
  const count = Math.min(last, pages);
  // Positions to place, and the listing's own order for each page's JSON-LD list.
  const positions = Math.min(total, count * size);
  const ordered = Math.min(total, (count - 1) * size + LIMITS.structuredData);
  const headIds = new Set(heads.map((s) => s.id));
  for (let n = Math.max(positions, ordered) + 2 * size; ; n *= 2) {
    const rows = await listingSlice(db, filter, { offset: 0, limit: n });
    const complete = rows.length < n;
    // A category's list: its Sponsored cards first (headFirst), each part in the listing's order.
    const items: (Server | SponsoredKey)[] =
      heads.length > 0 ? [...heads, ...rows.filter((s) => !headIds.has(s.id))] : rows;
    const { placed, settled } = placePaid(items, isPaidPlacement, { complete });
    const podium = podiumOf(rows);
    // Read on while the pages need rows past those read; a whole listing settles every position.
    if (!complete && (settled < positions || rows.length < ordered || podium.length < 3)) continue;
    const regions = regionsOf(summary.regions.map((region) => ({ region })));
    let unpaidBefore = 0;
    return Array.from({ length: count }, (_, i) => {
      const start = i * size;
      const shown = placed.slice(start, start + size);
      const page: PlacedPage = {
        page: i + 1,
        last,
        shown,
        firstRank: unpaidBefore + 1,
        regions,
        structured: rows.slice(start, start + LIMITS.structuredData),
        stats: i === 0 ? { servers: total, members: summary.members, active: summary.active, podium } : undefined,
      };
      for (const s of shown) if (!isPaidPlacement(s)) unpaidBefore++;
      return page;
    });
  }
}
