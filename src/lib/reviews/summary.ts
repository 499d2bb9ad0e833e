// What a listing's reviews add up to (#31): the average with its basis, the distribution, and the
// burst rule that holds reviews for a moderator. Pure, shared by the queries, pages and islands.

/** A listing shows its average (on its page, its card, its JSON-LD) once at least this many reviews show. */
export const REVIEWS_SHOWN_MIN = 3;

/** Reviews a page shows at a time (the first page is also in the HTML, for crawlers). */
export const REVIEWS_PAGE_SIZE = 10;

/** The window of the burst rule: new reviews of one listing counted over the last 24 hours. */
export const REVIEW_BURST_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Whether a new review is held for a moderator: `recent` new reviews of the listing were written in
 * the last 24 hours before it, and more than `limit` in 24 hours is what a brigade looks like.
 */
export const holdsForBurst = (recent: number, limit: number): boolean => recent + 1 > limit;

/** Count of shown reviews per star (index 0 is 1 star). */
export type Distribution = [number, number, number, number, number];

/** The average and count of ratings, and their distribution. */
export interface RatingSummary {
  count: number;
  /** Mean of the ratings to one decimal, rounded down (averageOf); 0 when none. */
  average: number;
  distribution: Distribution;
}

/**
 * The mean of `count` ratings that add up to `sum`, to one decimal and rounded down, so the figure
 * shown never claims more than the members gave: 4.96 shows 4.9, and 5.0 only when every rating is
 * 5. Whole-number arithmetic, as the listing's `rating` column is computed in SQL
 * (db/queries/reviews.ts), so the card and the page agree to the last digit. 0 when none.
 */
export const averageOf = (sum: number, count: number): number => (count > 0 ? Math.floor((sum * 10) / count) / 10 : 0);

/** Sums a listing's shown ratings (each 1..5). */
export function summarise(ratings: readonly number[]): RatingSummary {
  const distribution: Distribution = [0, 0, 0, 0, 0];
  let sum = 0;
  for (const r of ratings) {
    distribution[r - 1]! += 1;
    sum += r;
  }
  const count = ratings.length;
  return { count, average: averageOf(sum, count), distribution };
}

/** The spec's `rating` of a listing as the site shows it (#31): its average once at least REVIEWS_SHOWN_MIN member reviews show, else null. */
export const shownRating = (s: { rating?: unknown; review_count?: unknown }): number | null =>
  typeof s.review_count === 'number' && s.review_count >= REVIEWS_SHOWN_MIN && typeof s.rating === 'number'
    ? s.rating
    : null;

/** "4.3 from 12 verified members" (the average with its basis); null below REVIEWS_SHOWN_MIN. */
export function averageLine(summary: Pick<RatingSummary, 'count' | 'average'>): string | null {
  if (summary.count < REVIEWS_SHOWN_MIN) return null;
  return `${summary.average.toFixed(1)} from ${summary.count.toLocaleString('en-US')} verified members`;
}

// Built once, as reviewDate's (eligibility.ts): a server page prints one per review it shows.
const monthYear = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** "March 2025": the month and year a reviewer joined the server. */
export function memberSince(iso: string): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return '';
  return monthYear.format(t);
}
