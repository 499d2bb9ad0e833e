import type { Db } from '../../db/client';
import { type ListingSummary, readListingGroups, summarize } from '../../db/queries/listing-groups';
import {
  type ListingAnchor,
  type ListingKey,
  type ListingOutline,
  type ListingRow,
  listingHead,
  listingPaidPositions,
  listingSlice,
  listingSponsored,
  type Server,
  serversByIds,
} from '../../db/queries/servers';
import { CATEGORIES, categoryPath, SUBCATEGORIES, subcategoryPath } from '../lib/categories';
import { LIMITS } from '../lib/enums';
import { listingPlacement, PAID_SPACING, placesAtHead } from '../lib/placement';
import { type RegionChoice, regionsOf } from '../lib/regions';
import { cardsOf, podiumOf, totals } from './site-data';

/**
 * What one numbered page of a listing (all servers, or a category) shows: the same props whether
 * the build prerendered it from its one read (listingPageFromList) or a request renders it from
 * the database (listingPageFromDb, #18), so both write the same HTML.
 */
export interface ListingPage {
  /** 1-based page number. */
  page: number;
  /** The listing's last page (1 when it is empty). */
  last: number;
  /** The page's cards: its slice of the placed listing (paid cards at most one in five). */
  shown: ListingRow[];
  /** Organic rank of the page's first unpaid card. */
  firstRank: number;
  /** The regions the listing's servers name, for the search box's region menu. */
  regions: RegionChoice[];
  /** The JSON-LD item list: LIMITS.structuredData servers of the listing's own order from the page's start. */
  structured: ListingRow[];
  /** Page 1 only: the statistics of the whole listing and its podium. */
  stats?: ListingStats | undefined;
}

/** What a listing's first page says of the whole listing: its size, its totals, its Top 3. */
export interface ListingStats {
  servers: number;
  members: number;
  active: number;
  /** The first three unpaid servers (organic ranks, #19); none when the listing has fewer than three. */
  podium: ListingRow[];
}

const size = LIMITS.categoryPageSize;

/**
 * A page of a listing the build read whole (`servers`: the listing in its own order), its cards
 * from the build's card rows (SiteData.cards, which cardIds fills by these same rules).
 */
export function listingPageFromList(
  servers: ListingKey[],
  page: number,
  cards: ReadonlyMap<number, ListingRow>,
  /** A category's or subcategory's list: its Sponsored cards lead it (placesAtHead). */
  head = false,
): ListingPage {
  // Placed once per list (listingPlacement caches it): a build renders every page from the same array.
  const { placed, organicBefore } = listingPlacement(servers, head);
  const last = Math.max(1, Math.ceil(placed.length / size));
  const start = (page - 1) * size;
  return {
    page,
    last,
    shown: cardsOf(cards, placed.slice(start, start + size)),
    firstRank: organicBefore(start) + 1,
    regions: regionsOf(servers),
    structured: cardsOf(cards, servers.slice(start, start + LIMITS.structuredData)),
    stats: page === 1 ? listingStats(servers, cards) : undefined,
  };
}

/** A listing's statistics and podium (ListingStats). */
function listingStats(servers: readonly ListingKey[], cards: ReadonlyMap<number, ListingRow>): ListingStats {
  return { servers: servers.length, ...totals(servers), podium: cardsOf(cards, podiumOf(servers)) };
}

/**
 * placePaid (src/lib/placement.ts) computed from where the paid items stand instead of the items:
 * the placed position of each paid item, in their order. The k-th paid item (organic position o)
 * is reached at o and may stand PAID_SPACING after the one before it, so it stands at
 * max(o, previous + PAID_SPACING); the positions before it hold the k paid items before it and
 * unpaid ones, so when the list has fewer than (that position - k) unpaid items nothing is left
 * to space it out: it and every later one end the list (position unpaid + k). `organic`
 * ascending; the unit test compares this with placePaid on random lists. `paidTotal`: how many paid
 * items the list has when `organic` holds only the first ones (a listing's head): the later ones
 * cannot stand before them. `head` (a category's list) says which of them lead it (placesAtHead):
 * they are placed as if the list began with them (headFirst); positions come in the order of
 * `organic`. With heads, `organic` holds every paid item (outlineOf reads the whole listing then).
 */
export function paidPositions(
  total: number,
  organic: readonly number[],
  paidTotal = organic.length,
  head?: readonly boolean[],
): number[] {
  if (!head?.some(Boolean)) return spacedPositions(total, organic, paidTotal);
  // Moving the heads to the front puts the k-th of them at k and every other item behind the
  // heads that followed it in the organic order (one pass: `organic` ascends, so the heads seen
  // so far are those before it).
  const heads = head.reduce((n, h) => n + (h ? 1 : 0), 0);
  let seen = 0;
  const order = organic.map((o, i) => ({ i, at: head[i] ? seen++ : o + heads - seen }));
  order.sort((a, b) => a.at - b.at);
  const placed = spacedPositions(
    total,
    order.map((x) => x.at),
    paidTotal,
  );
  const positions = new Array<number>(organic.length);
  order.forEach((x, k) => {
    positions[x.i] = placed[k]!;
  });
  return positions;
}

/** paidPositions of a list whose paid items stand at `organic` (ascending), none leading it. */
function spacedPositions(total: number, organic: readonly number[], paidTotal = organic.length): number[] {
  const unpaid = total - paidTotal;
  const positions: number[] = [];
  let previous = -PAID_SPACING;
  let trailing = false;
  for (const [k, o] of organic.entries()) {
    const spaced = Math.max(o, previous + PAID_SPACING);
    trailing ||= spaced - k > unpaid;
    const p = trailing ? unpaid + k : spaced;
    positions.push(p);
    previous = p;
  }
  return positions;
}

/** Which listing a page is of: every server, a category, or a subcategory of one (its key, src/lib/categories.ts). */
export interface ListingOf {
  category?: string | undefined;
  subcategory?: string | undefined;
}

/**
 * How many servers of a listing's start a page within them is placed from (100 pages): its paid
 * listings among them are one index read (listingHead), where the pages after need a walk of the
 * whole listing (listingPaidPositions, seconds at a million listings).
 */
export const LISTING_HEAD = 100 * LIMITS.categoryPageSize;

/** What is kept per database while the seam's generation stays the same: the groups, and outlines by listing and reach. */
const kept = new WeakMap<
  Db,
  { generation: number; groups: Promise<ListingSummaryOf> | null; outlines: Map<string, Promise<ListingOutline>> }
>();

type ListingSummaryOf = (filter: ListingOf) => ListingSummary;

/** Memoizes `read` under `key` for this generation (none: read every time); a failed read is not kept. */
function keptFor(db: Db, generation: number | undefined) {
  if (generation === undefined) return null;
  let k = kept.get(db);
  if (k?.generation !== generation) {
    k = { generation, groups: null, outlines: new Map() };
    kept.set(db, k);
  }
  return k;
}

/** Every listing's summary (size, sums, paid count, regions), from listing_groups: a read of a few hundred rows. */
function summariesOf(db: Db, generation: number | undefined): Promise<ListingSummaryOf> {
  const k = keptFor(db, generation);
  if (k?.groups) return k.groups;
  const read = readListingGroups(db).then((groups) => (filter: ListingOf) => summarize(groups, filter));
  if (k) {
    k.groups = read;
    read.catch(() => {
      if (k.groups === read) k.groups = null;
    });
  }
  return read;
}

/**
 * A listing's outline for a page ending at `end` (exclusive, a position): its size, paid count
 * and regions from listing_groups; where its paid listings stand from the listing's head when the
 * page lies within it (and the listing has more unpaid servers than the head, so none of its paid
 * listings is pushed to the end), else from a walk of the whole listing. Kept while `generation`
 * stays the same (OnDemandContext.generation), so a crawler paging through a deep listing after a
 * change pays the walk once, not per page.
 */
async function outlineOf(
  db: Db,
  filter: ListingOf,
  summary: ListingSummary,
  end: number,
  generation: number | undefined,
): Promise<ListingOutline> {
  const head = end <= LISTING_HEAD && summary.servers - summary.paid >= LISTING_HEAD;
  const read = async (): Promise<ListingOutline> => {
    const [first, sponsored] = head
      ? await Promise.all([
          listingHead(db, filter, LISTING_HEAD),
          placesAtHead(filter) ? listingSponsored(db, filter) : [],
        ])
      : [null, []];
    return {
      total: summary.servers,
      paid: first ? withSponsoredAfter(first, sponsored) : await listingPaidPositions(db, filter),
      paidTotal: summary.paid,
      regions: summary.regions,
      upTo: first ? LISTING_HEAD : undefined,
    };
  };
  const k = keptFor(db, generation);
  if (!k) return read();
  const key = `${filter.category ?? ''}/${filter.subcategory ?? ''}/${head ? 'head' : 'all'}`;
  let outline = k.outlines.get(key);
  if (!outline) {
    const outlines = k.outlines;
    outline = read();
    outline.catch(() => outlines.delete(key));
    outlines.set(key, outline);
  }
  return outline;
}

/**
 * A listing's head with the Sponsored listings after it: they lead a category's list
 * (placesAtHead), so a page within the head shows them. They come after every listing of the
 * head in the listing's own order, at a position past it that is not counted (Infinity): placed
 * among the heads by their order alone, never before a page's first unpaid card. The other paid
 * listings past the head stand past every page within it (paidPositions: a paid listing never
 * stands before its organic position, nor the unpaid count while the listing has LISTING_HEAD
 * unpaid servers), so the pages within the head need none of them.
 */
function withSponsoredAfter(
  first: readonly ListingAnchor[],
  sponsored: readonly Pick<ListingAnchor, 'id' | 'members'>[],
): ListingAnchor[] {
  const inHead = new Set(first.map((p) => p.id));
  const after = sponsored.filter((s) => !inHead.has(s.id));
  return [
    ...first,
    ...after.map((s) => ({ id: s.id, members: s.members, position: Number.POSITIVE_INFINITY, sponsored: true })),
  ];
}

/**
 * A numbered page of a listing read from the database (#18), as listingPageFromList gives it for
 * the same rows: the listing's outline (size, paid positions, regions; SQLite walks it, only the
 * paid ids come back; kept while `generation` stays the same), then only the rows the page
 * shows. Null past the last page.
 */
export async function listingPageFromDb(
  db: Db,
  filter: ListingOf,
  page: number,
  generation?: number,
): Promise<ListingPage | null> {
  const summary = (await summariesOf(db, generation))(filter);
  const length = summary.servers;
  const last = Math.max(1, Math.ceil(length / size));
  if (!Number.isSafeInteger(page) || page < 1 || page > last) return null;
  const start = (page - 1) * size;
  const end = Math.min(start + size, length);
  let outline = await outlineOf(db, filter, summary, page * size, generation);
  let placed = placePage(outline, placesAtHead(filter), start, end);
  // A head holds the paid listings before its own unpaid ones only: a page whose unpaid cards
  // reach past them is placed from the whole listing (none of the prerendered pages does).
  if (outline.upTo !== undefined && placed.first + placed.unpaid > outline.upTo - placed.paidInHead) {
    outline = await outlineOf(db, filter, summary, Number.POSITIVE_INFINITY, generation);
    placed = placePage(outline, placesAtHead(filter), start, end);
  }
  const { paid } = outline;
  const { paidBefore, paidHere, first, paidAhead } = placed;
  const [unpaid, paidRows, structured, stats] = await Promise.all([
    listingSlice(db, filter, from(paid, paidAhead, first + paidAhead, placed.unpaid), 'unpaid'),
    serversByIds(db, [...paidHere.values()]),
    listingSlice(db, filter, from(paid, countBefore(paid, start), start, LIMITS.structuredData)),
    page === 1 ? listingStatsFromDb(db, filter, summary) : undefined,
  ]);
  const paidById = new Map(paidRows.map((s) => [s.id, s]));
  const shown: Server[] = [];
  let next = 0;
  for (let p = start; p < end; p++) {
    const id = paidHere.get(p);
    const server = id === undefined ? unpaid[next++] : paidById.get(id);
    // A row changed between the outline and this read: the page is re-read by the next request.
    if (server) shown.push(server);
  }
  return {
    page,
    last,
    shown,
    firstRank: start - paidBefore + 1,
    regions: regionsOf(outline.regions.map((region) => ({ region }))),
    structured,
    stats,
  };
}

/**
 * Which paid listings a page from `start` to `end` (placed positions) shows, by position, and
 * how many stand before it; `first`: the listing's unpaid number of its first unpaid card, and
 * `paidAhead`: the paid listings before that card in the listing's own order; `unpaid`: how many
 * unpaid cards it shows; `paidInHead`: the outline's paid listings at a counted position.
 */
function placePage(outline: ListingOutline, head: boolean, start: number, end: number) {
  const { paid } = outline;
  const positions = placedOf(outline, head);
  let paidBefore = 0;
  const paidHere = new Map<number, number>();
  paid.forEach(({ id }, k) => {
    const p = positions[k]!;
    if (p < start) paidBefore++;
    else if (p < end) paidHere.set(p, id);
  });
  // The page's first unpaid card is the listing's unpaid number `first`; the paid listings before
  // it in the listing's own order are those with at most `first` unpaid ones before them.
  const first = start - paidBefore;
  let paidAhead = 0;
  while (paidAhead < paid.length && paid[paidAhead]!.position - paidAhead <= first) paidAhead++;
  const paidInHead = paid.filter((p) => Number.isFinite(p.position)).length;
  return { paidBefore, paidHere, first, paidAhead, unpaid: end - start - paidHere.size, paidInHead };
}

/** Where an outline's paid listings stand once placed (paidPositions), by outline: its pages share them. */
const placements = new WeakMap<ListingOutline, number[]>();

/**
 * paidPositions of an outline's paid listings, computed once per outline: a kept outline serves
 * every page of its listing in a generation (the publish renders 20 of each), and a category with
 * thousands of paid listings costs milliseconds to place.
 */
function placedOf(outline: ListingOutline, head: boolean): number[] {
  let positions = placements.get(outline);
  if (!positions) {
    positions = paidPositions(
      outline.total,
      outline.paid.map((p) => p.position),
      outline.paidTotal,
      head ? outline.paid.map((p) => p.sponsored) : undefined,
    );
    placements.set(outline, positions);
  }
  return positions;
}

/**
 * A listing's statistics and podium read from the database (a first page rendered by the
 * incremental publish, functions/_app/site-publish.ts), as listingStats gives them from the
 * build's read: its size and sums in one walk, its first three unpaid servers.
 */
async function listingStatsFromDb(db: Db, filter: ListingOf, summary: ListingSummary): Promise<ListingStats> {
  const head = await listingSlice(db, filter, { offset: 0, limit: 3 }, 'unpaid');
  return {
    servers: summary.servers,
    members: summary.members,
    active: summary.active,
    podium: head.length === 3 ? head : [],
  };
}

/** How many of the paid listings stand before the listing's `position` (their positions ascending). */
function countBefore(paid: readonly ListingAnchor[], position: number): number {
  let lo = 0;
  let hi = paid.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (paid[mid]!.position < position) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Where a slice from the listing's `position` starts reading: after the last of the first
 * `ahead` paid listings (all before `position`), skipping the unpaid ones between; from the
 * listing's start when none is ahead. With paid listings spread through a listing, a deep page
 * reads a few rows past the nearest one instead of every row before it.
 */
function from(paid: readonly ListingAnchor[], ahead: number, position: number, limit: number) {
  const anchor = ahead > 0 ? paid[ahead - 1] : undefined;
  return anchor ? { after: anchor, offset: position - anchor.position - 1, limit } : { offset: position, limit };
}

/** The page number of a `/page/N` URL: a plain decimal from 2 up (page 1 is the listing's own path), else null. */
export function pageParam(value: string | undefined): number | null {
  if (!value || !/^[1-9][0-9]{0,8}$/.test(value)) return null;
  const page = Number(value);
  return page >= 2 ? page : null;
}

/** A listing of the site: its first page's path (numbered pages follow at `${path}/page/N`) and which servers it lists. */
export interface SiteListing {
  path: string;
  filter: ListingOf;
}

/** Every listing the site has: all servers, each category, each subcategory (27). */
export const SITE_LISTINGS: readonly SiteListing[] = [
  { path: '/servers', filter: {} },
  ...CATEGORIES.map((c) => ({ path: categoryPath(c.slug), filter: { category: c.name } })),
  ...SUBCATEGORIES.map((s) => ({
    path: subcategoryPath(s),
    filter: { category: s.parentCategory, subcategory: s.key },
  })),
];

/** The listing whose first page is at `path`, if any. */
export const siteListingAt = (path: string): SiteListing | undefined => SITE_LISTINGS.find((l) => l.path === path);
