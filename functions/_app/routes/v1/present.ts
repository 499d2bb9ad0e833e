import type { HistoryPoint } from '../../../../db/queries/history';
import type { Server } from '../../../../db/queries/servers';
import { iconSrc } from '../../../../src/islands/card-data';
import { CATEGORIES, categoryPath, subcategoriesOf, subcategoryPath } from '../../../../src/lib/categories';
import { joinTarget } from '../../../../src/lib/invite';
import { inviteView } from '../../../../src/lib/invite-checks/invite-state';
import { isPaidPlacement, matchesSubcategory } from '../../../../src/lib/listing';
import { type CategoryRank, explainRank, readParts } from '../../../../src/lib/ranking/explanation';
import { shownRating } from '../../../../src/lib/reviews/summary';
import type { CategoryList, PublicServer, ServerDetail } from '../../../../src/lib/schemas/public-api';

/** An absolute URL of this site (SITE_URL's origin and a path). */
export const siteUrl = (site: string, path: string): string => new URL(path, site).href;

/**
 * A listing as the public API gives it in a list: only what its card shows, field by field (a
 * column added to the table never leaks into an answer by being spread).
 */
export function toPublicServer(s: Server, site: string): PublicServer {
  const invite = inviteView(s.invite_status);
  const join = invite.join && joinTarget(s.affiliate_link) !== null;
  return {
    slug: s.slug,
    name: s.name,
    description: s.description,
    category: s.category,
    subcategory: s.subcategory,
    tags: s.tags,
    language: s.language,
    region: s.region,
    url: siteUrl(site, `/server/${encodeURIComponent(s.slug)}`),
    icon_url: iconSrc(s),
    join_url: join ? siteUrl(site, `/go/${encodeURIComponent(s.slug)}`) : null,
    members: s.members,
    online: s.active_users,
    checked_at: s.last_checked_at,
    invite_state: s.invite_status,
    premium: s.is_premium,
    sponsored: s.is_sponsored,
    placement: isPaidPlacement(s) ? 'paid' : 'organic',
    listed_at: s.created_at,
  };
}

/** One listing with what its page shows: its card, its texts, the invite notice, the rank and why, the history. */
export function toServerDetail(
  s: Server,
  site: string,
  place: CategoryRank | undefined,
  history: readonly HistoryPoint[],
): ServerDetail {
  const parts = readParts(s.rank_explain);
  return {
    ...toPublicServer(s, site),
    features: s.features,
    pros: s.pros,
    cons: s.cons,
    links: s.links.map((l) => ({ label: l.label, url: l.url })),
    last_ok_at: s.last_ok_at,
    invite_notice: inviteView(s.invite_status).notice,
    rank: {
      place: place ? { rank: place.rank, of: place.of } : null,
      score: s.rank_score,
      explanation: parts
        ? explainRank(parts, s.rank_score, s.invite_status).map((l) => ({ part: l.part, text: l.text }))
        : [],
    },
    // The member reviews' average (#31), once at least 3 show: the same figure as the page and the card.
    rating: shownRating(s),
    history: history.map((p) => ({ checked_at: p.checked_at, members: p.members, online: p.online })),
  };
}

/** Every category with its subcategories, each with how many listed servers its page shows. */
export function toCategoryList(
  counts: readonly { category: string; subcategory: string | null; n: number }[],
  site: string,
): CategoryList {
  return {
    categories: CATEGORIES.map((cat) => {
      const own = counts.filter((r) => r.category === cat.name);
      return {
        name: cat.name,
        slug: cat.slug,
        url: siteUrl(site, categoryPath(cat.slug)),
        servers: own.reduce((sum, r) => sum + r.n, 0),
        subcategories: subcategoriesOf(cat.slug).map((sub) => ({
          name: sub.name,
          key: sub.key,
          url: siteUrl(site, subcategoryPath(sub)),
          servers: own.filter((r) => matchesSubcategory(r.subcategory, sub.key)).reduce((sum, r) => sum + r.n, 0),
        })),
      };
    }),
  };
}
