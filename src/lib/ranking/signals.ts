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
 * The slugs of the servers with a page that a recompute changed: those whose printed score, parts
 * or growth it changed (`rewritten`), and the listed, scored ones whose place in their category
 * (the Most Active order a server page prints) moved. An unscored listing prints no place
 * (RankExplanation), so a new listing placed above it leaves its page as it was.
 */
export function shownChanges(
  listings: readonly ScoredListing[],
  after: ReadonlyMap<number, { score: number; growth: number }>,
  rewritten: ReadonlySet<number>,
): string[] {
  const withStatus = listings.map((l) => ({ ...l, invite_status: l.status }));
  const listed = withStatus.filter(isListed);
  const scoreOf = (l: ScoredListing, pick: 'before' | 'after') => (pick === 'before' ? l : (after.get(l.id) ?? l));
  const ranked = (pick: 'before' | 'after') =>
    categoryRanks(
      listed.map((l) => ({
        ...l,
        created_at: l.createdAt,
        rank_score: scoreOf(l, pick).score,
        growth_30d: scoreOf(l, pick).growth,
      })),
    );
  const before = ranked('before');
  const now = ranked('after');
  // The place a page prints: only a scored listing's.
  const place = (l: ScoredListing, pick: 'before' | 'after', ranks: typeof before) =>
    scoreOf(l, pick).score > 0 ? ranks.get(l.id)?.rank : undefined;
  return withStatus
    .filter((l) => hasPage(l) && (rewritten.has(l.id) || place(l, 'before', before) !== place(l, 'after', now)))
    .map((l) => l.slug);
}
