/**
 * The rank's signals that span listings (the niche median online share) and what a recompute
 * changed on the pages. Pure: the recompute (db/queries/rank.ts) reads the rows and calls these.
 */
import type { InviteStatus } from '../enums';
import { hasPage, isListed } from '../listing';
import { CHECKED_WORKING, NICHE_MIN_MEMBERS } from './constants';
import { categoryRanks } from './explanation';

/** Median of a list (mutates its order). */
export function median(values: number[]): number {
  values.sort((a, b) => a - b);
  const mid = values.length >> 1;
  return values.length % 2 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}

/** Per category: the median online share of listings whose invite works (and with NICHE_MIN_MEMBERS or more). */
export function nicheShares(
  listings: Iterable<{ category: string; members: number; online: number; status: InviteStatus }>,
): Map<string, number> {
  const shares = new Map<string, number[]>();
  for (const l of listings) {
    if (!CHECKED_WORKING.includes(l.status) || l.members < NICHE_MIN_MEMBERS) continue;
    const list = shares.get(l.category) ?? [];
    list.push(Math.min(1, l.online / l.members));
    shares.set(l.category, list);
  }
  return new Map([...shares].map(([category, list]) => [category, median(list)]));
}

/** A listing as the recompute read it: its stored score, growth and place, and what decides its page and place. */
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
  const ranked = [];
  for (const l of listings) {
    if (!isListed({ is_active: l.is_active, category: l.category, invite_status: l.status })) continue;
    const now = after.get(l.id) ?? l;
    ranked.push({
      id: l.id,
      category: l.category,
      members: l.members,
      sort_order: l.sort_order,
      created_at: l.createdAt,
      rank_score: now.score,
      growth_30d: now.growth,
    });
  }
  const ranks = categoryRanks(ranked);
  return new Map([...ranks].map(([id, r]) => [id, r.rank]));
}

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
