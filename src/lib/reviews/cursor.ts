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
 * The site page of a listing's reviews past its first page (src/pages/server/[slug]/reviews.astro,
 * rendered on request through the site's layout): `/server/{slug}/reviews`, with the key a page
 * starts from in its query.
 */
export const reviewsPagePath = (slug: string): string => `/server/${encodeURIComponent(slug)}/reviews`;

/** Whether a site path is a listing's reviews page (reviewsPagePath), whatever the slug. */
export const isReviewsPagePath = (path: string): boolean => /^\/server\/[^/]+\/reviews$/.test(path);

/** The query of a page of reviews from a key: `before=` (older than it) or `after=` (newer). */
export const reviewsQuery = (at: ReviewsFrom): string =>
  'before' in at
    ? `before=${encodeURIComponent(reviewKey({ created_at: at.before.createdAt, id: at.before.id }))}`
    : `after=${encodeURIComponent(reviewKey({ created_at: at.after.createdAt, id: at.after.id }))}`;

/**
 * Where the reviews of listing `slug` from a key are a page (reviewsPagePath): `older` goes back
 * from a page's last review, `newer` forward from its first.
 */
export const reviewsPageHref = (slug: string, dir: 'older' | 'newer', key: string): string =>
  `${reviewsPagePath(slug)}?${dir === 'older' ? 'before' : 'after'}=${encodeURIComponent(key)}`;

/**
 * What a reviews page's query asks for: a page from a key (with the query written the one way,
 * for its canonical URL and the caches' key), no key at all, or a key that is not one (named).
 */
export type ReviewsQueryRead =
  | { kind: 'page'; at: ReviewsFrom; query: string }
  | { kind: 'none' }
  | { kind: 'bad'; field: 'before' | 'after' | 'before and after' };

/** Reads a reviews page's query (other parameters are ignored, as the listing pages ignore theirs). */
export function readReviewsQuery(params: URLSearchParams): ReviewsQueryRead {
  const before = params.getAll('before');
  const after = params.getAll('after');
  if (before.length === 0 && after.length === 0) return { kind: 'none' };
  if (before.length + after.length > 1) {
    return {
      kind: 'bad',
      field: before.length && after.length ? 'before and after' : before.length ? 'before' : 'after',
    };
  }
  const field = before.length ? 'before' : 'after';
  const key = parseReviewKey((before[0] ?? after[0])!);
  if (!key) return { kind: 'bad', field };
  const at: ReviewsFrom = field === 'before' ? { before: key } : { after: key };
  return { kind: 'page', at, query: reviewsQuery(at) };
}

/** "Reviews 11 to 20 of 25.": where a page is in the list, as it stood when read. */
export function reviewsRangeLine(from: number, shown: number, total: number): string {
  if (shown === 0) return `${total} ${total === 1 ? 'review' : 'reviews'} in all.`;
  return `Reviews ${from} to ${from + shown - 1} of ${total}.`;
}
