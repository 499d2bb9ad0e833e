import type { Db } from '../../db/client';
import { confirmedFlagsOf, type PublicFlag } from '../../db/queries/flags';
import { type HistoryPoint, memberHistoryOf } from '../../db/queries/history';
import { hasPublicReviews, listPublicReviews, type ReviewPage, type ReviewsAt } from '../../db/queries/reviews';
import { categoryRankOf, getServerPageBySlug, type Server } from '../../db/queries/servers';
import { isListed } from '../lib/listing';
import { type CategoryRank, rankKey, shownPlace } from '../lib/ranking/explanation';
import { REVIEWS_PAGE_SIZE } from '../lib/reviews/summary';
import { HISTORY_DAYS, type SiteData } from './site-data';

/**
 * Everything a server page shows of its listing: the same props whether the build prerendered
 * the page (serverPageFromBuild) or a visitor's request renders it (serverPageFromDb, #18).
 */
export type ServerPageProps = {
  server: Server;
  /** Member history over the last HISTORY_DAYS days, oldest first. */
  history: HistoryPoint[];
  /** Anomaly flags a moderator confirmed (the only ones a page shows). */
  flags: PublicFlag[];
  /** What "checked N ago" counts from: the build's read, or the request. */
  now: Date;
  /** Its place in its category by score; only a listed, scored server shows one. */
  place: CategoryRank | undefined;
  /** The first page of its member reviews and their summary (#31); the page's script keeps them current. */
  reviews: ReviewPage | null;
};

/** Whether a page shows the listing's place: listed and scored (a dead listing's page has none). */
const showsPlace = (s: Server) => isListed(s) && s.rank_score > 0;

/** A prerendered server page's props, from the build's one read. */
export function serverPageFromBuild(data: SiteData, server: Server): ServerPageProps {
  return {
    server,
    history: data.history.get(server.id) ?? [],
    flags: data.confirmedFlags.get(server.id) ?? [],
    now: data.builtAt,
    place: showsPlace(server) ? shownPlace(server, data.categorySizes.get(server.category) ?? 0) : undefined,
    reviews: data.reviews.get(server.id) ?? null,
  };
}

/** The incremental-build cache key of a prerendered server page: what its HTML depends on. */
export function serverPageCacheKey(data: SiteData, server: Server, turnstile: string): string {
  const flags = (data.confirmedFlags.get(server.id) ?? []).map((f) => f.rule).join('+');
  // A check changes the counts, the history and the invite state without touching updated_at.
  return `${server.id}:${server.updated_at}:${server.last_checked_at}:${server.invite_status}:${flags}:${data.contentVersion}:${turnstile}:${rankKey(server)}`;
}

/**
 * A server page's props read from the database at request time (#18): the listing by its
 * current slug, its history, confirmed flags and category place, as the build would give them.
 * Null when no server has a page at that slug.
 */
export async function serverPageFromDb(db: Db, slug: string, now: Date): Promise<ServerPageProps | null> {
  const server = await getServerPageBySlug(db, slug);
  if (!server) return null;
  const [history, flags, place, reviews] = await Promise.all([
    memberHistoryOf(db, server.id, HISTORY_DAYS, now),
    confirmedFlagsOf(db, server.id),
    showsPlace(server) ? categoryRankOf(db, server) : undefined,
    // Most listings have no review: one read says so, instead of the page, its count and the summary.
    hasPublicReviews(db, server.id).then((any) =>
      any ? listPublicReviews(db, server.id, { page: 1 }, REVIEWS_PAGE_SIZE) : null,
    ),
  ]);
  return {
    server,
    history,
    flags,
    now,
    place,
    // As the build reads them: a listing without any public review has none.
    reviews: reviews && reviews.total > 0 ? reviews : null,
  };
}

/** What a listing's reviews page (src/pages/server/[slug]/reviews.astro) shows: the listing and a page of its reviews. */
export interface ReviewsPageProps {
  server: Server;
  reviews: ReviewPage;
}

/**
 * A listing's reviews page read at request time: the listing by its current slug (null when no
 * listed server has a page there, hidden ones included) and its public reviews from the key `at`
 * (listPublicReviews: a key with nothing past it gives the first page).
 */
export async function reviewsPageFromDb(db: Db, slug: string, at: ReviewsAt): Promise<ReviewsPageProps | null> {
  const server = await getServerPageBySlug(db, slug);
  if (!server) return null;
  return { server, reviews: await listPublicReviews(db, server.id, at, REVIEWS_PAGE_SIZE) };
}
