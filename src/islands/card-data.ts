import type { CATEGORY_NAMES } from '~/lib/categories';
import { joinTarget } from '~/lib/invite';

/** The public fields a server card shows: what islands receive as props. */
export interface CardServer {
  id: number;
  name: string;
  slug: string;
  description: string;
  category: string;
  members: number;
  image_url: string | null;
  tags: string[];
  is_premium: boolean;
  is_sponsored: boolean;
  /** Whether the server has a join link (joinTarget): without one the card shows no Join button. */
  has_link: boolean;
}

/** Narrows a full server row (build data or API JSON) to the card's public fields. */
export function toCard(
  s: Omit<CardServer, 'has_link'> & { affiliate_link?: string | null | undefined } & Record<string, unknown>,
): CardServer {
  return {
    id: s.id,
    name: s.name,
    slug: s.slug,
    description: s.description,
    category: s.category,
    members: s.members,
    image_url: s.image_url,
    tags: (s.tags ?? []).slice(0, 3),
    is_premium: Boolean(s.is_premium),
    is_sponsored: Boolean(s.is_sponsored),
    has_link: joinTarget(s.affiliate_link) !== null,
  };
}

/** A category button of the filter bar. */
export interface FilterCategory {
  name: (typeof CATEGORY_NAMES)[number];
  slug: string;
  /** The category page, passed in so the island does not bundle the category definitions. */
  href: string;
}

/**
 * The Join link of SPEC section 2: /go/{slug} records the click and redirects to the stored link.
 * Null without a link: a button that leads nowhere (the old 'Join Premium' plain button) is none.
 */
export function joinProps(s: Pick<CardServer, 'slug' | 'is_premium' | 'is_sponsored' | 'has_link'>) {
  if (!s.has_link) return null;
  const paid = s.is_premium || s.is_sponsored;
  return {
    href: `/go/${encodeURIComponent(s.slug)}`,
    target: '_blank',
    rel: paid ? 'sponsored noopener' : 'nofollow ugc noopener',
    label: paid ? 'Join Premium' : 'Join Server',
    paid,
  };
}
