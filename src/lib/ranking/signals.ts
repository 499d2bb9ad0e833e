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

/** A listing as the recompute read it: its stored score and growth, and what decides its page and place. */
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
}

/**
 * The slugs of the servers with a page that a recompute changed: those it rewrote, and the listed
 * ones whose place in their category (the Most Active order a server page prints) moved.
 */
export function shownChanges(
  listings: readonly ScoredListing[],
  after: ReadonlyMap<number, { score: number; growth: number }>,
  rewritten: ReadonlySet<number>,
): string[] {
  const withStatus = listings.map((l) => ({ ...l, invite_status: l.status }));
  const listed = withStatus.filter(isListed);
  const ranked = (pick: (l: (typeof listed)[number]) => { score: number; growth: number }) =>
    categoryRanks(
      listed.map((l) => ({ ...l, created_at: l.createdAt, rank_score: pick(l).score, growth_30d: pick(l).growth })),
    );
  const before = ranked((l) => l);
  const now = ranked((l) => after.get(l.id) ?? l);
  return withStatus
    .filter((l) => hasPage(l) && (rewritten.has(l.id) || before.get(l.id)?.rank !== now.get(l.id)?.rank))
    .map((l) => l.slug);
}
