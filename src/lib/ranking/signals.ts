/**
 * The rank's signals that span listings (the niche median online share) and what a recompute
 * changed on the pages. Pure: the recompute (db/queries/rank.ts) reads the rows and calls these.
 */
import type { InviteStatus } from '../enums';
import { compareServers, hasPage, isListed } from '../listing';
import { inSteps, sortInSteps } from '../steps';
import { CHECKED_WORKING, NICHE_MIN_MEMBERS } from './constants';
import { categoryRanks, type Ranked } from './explanation';

/** Median of a list (a category's 200,000 shares at a million listings: sorted as a typed array, several times faster). */
export function median(values: readonly number[]): number {
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** What the niche median reads of a listing. */
type NicheInput = { category: string; members: number; online: number; status: InviteStatus };

/** Adds a listing's online share to its category's list when it counts (a working invite, NICHE_MIN_MEMBERS or more). */
function addShare(shares: Map<string, number[]>, l: NicheInput): void {
  if (!CHECKED_WORKING.includes(l.status) || l.members < NICHE_MIN_MEMBERS) return;
  const list = shares.get(l.category);
  if (list) list.push(Math.min(1, l.online / l.members));
  else shares.set(l.category, [Math.min(1, l.online / l.members)]);
}

const medians = (shares: Map<string, number[]>) =>
  new Map([...shares].map(([category, list]) => [category, median(list)]));

/** Per category: the median online share of listings whose invite works (and with NICHE_MIN_MEMBERS or more). */
export function nicheShares(listings: Iterable<NicheInput>): Map<string, number> {
  const shares = new Map<string, number[]>();
  for (const l of listings) addShare(shares, l);
  return medians(shares);
}

/** nicheShares in steps (src/lib/steps.ts), for a recompute of every listing: the same medians. */
export async function nicheSharesInSteps(listings: readonly NicheInput[]): Promise<Map<string, number>> {
  const shares = new Map<string, number[]>();
  await inSteps(listings, (l) => addShare(shares, l));
  return medians(shares);
}

export interface ScoredListing {
  id: number;
  slug: string;
  category: string;
  is_active: boolean;
  status: InviteStatus;
  members: number;
  sort_order: number;
  createdAt: string;
  score: number;
  growth: number;
  /** The place the previous recompute stored (category_place), null when none. */
  place: number | null;
}

/**
 * Each listed listing's place in its category (categoryRanks: the Most Active order a server page
 * and the rank badge print) with the scores and growth `after` gives (a listing absent from it
 * keeps its own), by id; an unlisted listing has none. What the recompute stores in category_place.
 */
export function categoryPlaces(
  listings: readonly ScoredListing[],
  after: ReadonlyMap<number, { score: number; growth: number }>,
): Map<number, number> {
  const ranked: Ranked[] = [];
  for (const l of listings) {
    if (!isListed({ is_active: l.is_active, category: l.category, invite_status: l.status })) continue;
    ranked.push(rankedRow(l, after.get(l.id) ?? l));
  }
  const ranks = categoryRanks(ranked);
  return new Map([...ranks].map(([id, r]) => [id, r.rank]));
}

/** A listing as the Most Active order reads it, with the score and growth the recompute gives it. */
const rankedRow = (l: ScoredListing, now: { score: number; growth: number }): Ranked => ({
  id: l.id,
  category: l.category,
  members: l.members,
  sort_order: l.sort_order,
  created_at: l.createdAt,
  rank_score: now.score,
  growth_30d: now.growth,
});

/**
 * The places a recompute stores (category_place): a scored listed listing's place in its category
 * (categoryPlaces); an unscored one prints no place (RankExplanation, the rank badge) and stores
 * none, so a new listing placed above 200,000 unscored ones rewrites none of their rows or pages.
 */
export function storedPlaces(
  listings: readonly ScoredListing[],
  after: ReadonlyMap<number, { score: number; growth: number }>,
): Map<number, number> {
  const places = categoryPlaces(listings, after);
  for (const l of listings) if ((after.get(l.id) ?? l).score <= 0) places.delete(l.id);
  return places;
}

/**
 * storedPlaces in steps (src/lib/steps.ts), for a recompute of every listing: the same places.
 * Only the scored listed listings are sorted, each category by sortInSteps in the Most Active
 * order: every unscored one comes after every scored one in that order (the score is its first
 * key), so it moves no scored listing's place, and stores none of its own.
 */
export async function storedPlacesInSteps(
  listings: readonly ScoredListing[],
  after: ReadonlyMap<number, { score: number; growth: number }>,
): Promise<Map<number, number>> {
  const categories = new Map<string, Ranked[]>();
  await inSteps(listings, (l) => {
    const now = after.get(l.id) ?? l;
    if (now.score <= 0 || !isListed({ is_active: l.is_active, category: l.category, invite_status: l.status })) return;
    const row = rankedRow(l, now);
    const rows = categories.get(l.category);
    if (rows) rows.push(row);
    else categories.set(l.category, [row]);
  });
  const places = new Map<number, number>();
  for (const rows of categories.values()) {
    let place = 0;
    await inSteps(await sortInSteps(rows, compareServers('active')), (r) => places.set(r.id, ++place));
  }
  return places;
}

/**
 * The slugs of the servers with a page that a recompute changed: those whose score, parts,
 * growth or stored place it rewrote (a page shows all four).
 */
export function shownChanges(listings: readonly ScoredListing[], rewritten: ReadonlySet<number>): string[] {
  return listings
    .filter(
      (l) => rewritten.has(l.id) && hasPage({ is_active: l.is_active, category: l.category, invite_status: l.status }),
    )
    .map((l) => l.slug);
}
