// Where a page of a listing's reviews starts (#31): the key (created_at, id) of a review, the order
// the list is in (newest first), so paging by it never shows a review twice or skips one when new
// reviews arrive meanwhile (an offset did: each new review pushed the next page back by one). Pure,
// shared by the query, the page's links, the review route and the page's script.

/** A review's place in its listing's list: when it was written, and its id for reviews of the same instant. */
export interface ReviewKey {
  createdAt: string;
  id: number;
}

/** A page of reviews: those older than a key (going back), or newer than one (coming forward). */
export type ReviewsFrom = { before: ReviewKey } | { after: ReviewKey };

const KEY = /^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?Z?)~([1-9]\d{0,11})$/;

/** The key of a review as a query value: `2026-05-01T10:00:00.000Z~42`. */
export const reviewKey = (r: { created_at: string; id: number }): string => `${r.created_at}~${r.id}`;

/** A query value read back as a key, or null for anything that is not one. */
export function parseReviewKey(value: string): ReviewKey | null {
  const m = KEY.exec(value);
  return m ? { createdAt: m[1]!, id: Number(m[2]) } : null;
}

/**
 * Where the reviews of listing `serverId` from a key are a page without JavaScript (the server page
 * with that page of reviews, rendered on request by the review route): `older` goes back from a
 * page's last review, `newer` forward from its first.
 */
export const reviewsPageHref = (serverId: number, dir: 'older' | 'newer', key: string): string =>
  `/api/reviews/servers/${serverId}/page?${dir === 'older' ? 'before' : 'after'}=${encodeURIComponent(key)}`;

/** "Reviews 11 to 20 of 25.": where a page is in the list, as it stood when read. */
export function reviewsRangeLine(from: number, shown: number, total: number): string {
  if (shown === 0) return `${total} ${total === 1 ? 'review' : 'reviews'} in all.`;
  return `Reviews ${from} to ${from + shown - 1} of ${total}.`;
}
