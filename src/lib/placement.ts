/**
 * Where paid cards (Premium and Sponsored listings) may stand in a list (#19, #30): the rule
 * spaces them out, it never hides one. The list keeps its organic order; a Premium card is never
 * moved up, only down (behind enough other servers) when it would stand too close to the paid card
 * before it. Paid cards that no other server is left to space out stand at the end of the list, in
 * their order: every listed server has a card in every list it belongs to, and every count counts it.
 *
 * The one placement that moves a card up is the one sold as "at the head of its category" (the
 * Sponsored plans): in a list of one category or one of its subcategories (not a search), the
 * Sponsored cards come first, the first at the head of the list and each next one at the earliest
 * position the spacing allows (0, 5, 10: at most DEFAULT_SPONSORED_SLOTS of them per category), ahead
 * of every Premium card. That is the same rule over the list with the Sponsored cards moved to its
 * front (headFirst).
 *
 * The rule, exactly (placement.test.ts proves it on random lists): two paid cards stand fewer than
 * PAID_SPACING positions apart only when every card from the later one to the end of the list is
 * paid (the trailing paid cards nothing could space). Organic rank numbers count the other cards
 * only. Pure: pages, islands and GET /api/servers all place cards with it.
 */

import { isAll, isPaidPlacement, type ListedServer, searchTerm } from './listing';

/** At most one paid card in this many consecutive positions. */
export const PAID_SPACING = 5;

/** What placing a list gives. */
export interface Placement<T> {
  /** The list in display order. */
  placed: T[];
  /**
   * How many of `placed` are final: all of them for a complete list; for a prefix of a longer
   * list (`complete: false`), the positions that later items cannot change.
   */
  settled: number;
}

/**
 * Places a list given in organic order so that any PAID_SPACING consecutive positions hold at
 * most one item with `isPaid`, except the trailing paid items no unpaid one was left to space out
 * (they end the list, in order). Every item is placed exactly once. `complete: false` says `items`
 * is only the start of a longer list: placement then stops where the next, unseen item would
 * decide (see `settled`).
 */
export function placePaid<T>(
  items: readonly T[],
  isPaid: (item: T) => boolean,
  { complete = true }: { complete?: boolean } = {},
): Placement<T> {
  const placed: T[] = [];
  const waiting: T[] = [];
  let next = 0;
  let lastPaid = -PAID_SPACING;
  for (;;) {
    const position = placed.length;
    // Paid items reached in organic order wait their turn (never ahead of their organic place).
    while (next < items.length && isPaid(items[next]!)) waiting.push(items[next++]!);
    if (waiting.length > 0 && position - lastPaid >= PAID_SPACING) {
      placed.push(waiting.shift()!);
      lastPaid = position;
      continue;
    }
    if (next < items.length) {
      placed.push(items[next++]!);
      continue;
    }
    // Out of items: a longer list's next item would decide this position.
    if (!complete) return { placed, settled: placed.length };
    // Nothing is left to space the waiting paid items out: they end the list, never left out.
    placed.push(...waiting);
    return { placed, settled: placed.length };
  }
}

/** Which lists place Sponsored cards at their head: one category's or one subcategory's, without a search. */
export const placesAtHead = (list: { category?: string | undefined; search?: string | undefined }): boolean =>
  !isAll(list.category) && !searchTerm(list.search);

/** The placement "at the head of its category" (the Sponsored plans, #30). */
export const isHeadPlacement = (s: Pick<ListedServer, 'is_sponsored'>): boolean => s.is_sponsored;

/** The list with the items for which `isHead` holds moved to its front, each part in its own order. */
export function headFirst<T>(items: readonly T[], isHead: (item: T) => boolean): T[] {
  const heads = items.filter(isHead);
  return heads.length === 0 ? [...items] : [...heads, ...items.filter((item) => !isHead(item))];
}

/**
 * A reader of prefixes of a list with `heads` at its front (headFirst), from a reader of its
 * organic order: `heads` are every item of the list that goes first (read on their own: a few per
 * category), `key` says which organic items they are, so none is placed twice.
 */
export function readHeadFirst<T>(
  read: (n: number) => Promise<{ servers: T[]; total: number }> | { servers: T[]; total: number },
  heads: readonly T[],
  key: (item: T) => unknown,
): (n: number) => Promise<{ servers: T[]; total: number }> {
  const keys = new Set(heads.map(key));
  return async (n) => {
    const { servers, total } = await read(n);
    if (keys.size === 0) return { servers, total };
    return { servers: [...heads, ...servers.filter((s) => !keys.has(key(s)))].slice(0, n), total };
  };
}

/** The organic rank number of each placed item (1-based, `first` for the first organic one), null for paid ones. */
export function organicRanks<T>(placed: readonly T[], isPaid: (item: T) => boolean, first = 1): (number | null)[] {
  let rank = first;
  return placed.map((item) => (isPaid(item) ? null : rank++));
}

/**
 * How deep into a list a placed page may start: placing a page reads every row before it, so a
 * page past this many positions answers no servers (nobody pages 10,000 cards deep; the built
 * listing pages cover every server).
 */
export const MAX_PLACED_POSITIONS = 10_000;

/**
 * One page (`page`, 1-based, of `perPage`) of a placed list read as prefixes of its organic order:
 * `read(n)` answers the first n items and how many the whole list has. Reads twice the page's
 * end, then doubles until the page is settled, so a page never depends on items it did not read.
 * `total` is the placed list's length once the whole list was read, else the list's own count.
 * A page starting past MAX_PLACED_POSITIONS has no servers.
 */
export async function placedPage<T>(
  read: (n: number) => Promise<{ servers: T[]; total: number }> | { servers: T[]; total: number },
  isPaid: (item: T) => boolean,
  page: number,
  perPage: number,
): Promise<{ servers: T[]; total: number }> {
  const start = (page - 1) * perPage;
  const end = start + perPage;
  if (start >= MAX_PLACED_POSITIONS) return { servers: [], total: (await read(1)).total };
  // The first read is the page plus one spacing: every position placed from a prefix is final
  // (placePaid's settled), so `end` are settled unless paid cards are still waiting. A search
  // walks about n / density rows for it (#18), so reading twice the page doubled its cost.
  for (let n = end + PAID_SPACING; ; n *= 2) {
    const { servers, total } = await read(n);
    const complete = servers.length >= total || servers.length < n;
    const { placed, settled } = placePaid(servers, isPaid, { complete });
    if (complete || settled >= end) {
      return { servers: placed.slice(start, end), total: complete ? placed.length : total };
    }
  }
}

type Paid = Pick<ListedServer, 'is_premium' | 'is_sponsored'>;

/** A whole built listing placed, with the organic cards before each position (for rank numbers). */
export interface ListingPlacement<T> extends Placement<T> {
  /** How many organic (unpaid) cards stand before `position` of `placed`. */
  organicBefore(position: number): number;
}

/**
 * Placements of the build's listings by list (and whether Sponsored cards lead it): a build
 * renders every numbered page of a listing from the same array (src/data/site-data.ts reads the
 * rows once), and placing it again for each of hundreds of pages made the build quadratic in the
 * listing's size.
 */
const listingPlacements = {
  organic: new WeakMap<readonly object[], ListingPlacement<never>>(),
  head: new WeakMap<readonly object[], ListingPlacement<never>>(),
};

/**
 * A whole listing placed (paid cards at most one in five; with `head`, a category's list, its
 * Sponsored cards first: placesAtHead), for the pages built from every row; once per list.
 */
export function listingPlacement<T extends Paid>(servers: readonly T[], head = false): ListingPlacement<T> {
  const cache = head ? listingPlacements.head : listingPlacements.organic;
  const known = cache.get(servers) as ListingPlacement<T> | undefined;
  if (known) return known;
  const placement = placePaid(head ? headFirst(servers, isHeadPlacement) : servers, isPaidPlacement);
  const before = new Uint32Array(placement.placed.length + 1);
  placement.placed.forEach((s, i) => {
    before[i + 1] = before[i]! + (isPaidPlacement(s) ? 0 : 1);
  });
  const result: ListingPlacement<T> = {
    ...placement,
    organicBefore: (position) => before[Math.min(Math.max(0, position), placement.placed.length)]!,
  };
  cache.set(servers, result as ListingPlacement<never>);
  return result;
}

/** A whole listing placed (listingPlacement), for the pages built from every row. */
export const placeListing = <T extends Paid>(servers: readonly T[], head = false): T[] =>
  listingPlacement(servers, head).placed;
