import type { CATEGORY_NAMES } from '~/lib/categories';

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
}

/** Narrows a full server row (build data or API JSON) to the card's public fields. */
export function toCard(s: CardServer & Record<string, unknown>): CardServer {
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
  };
}

/** A category button of the filter bar. */
export interface FilterCategory {
  name: (typeof CATEGORY_NAMES)[number];
  slug: string;
  /** The category page, passed in so the island does not bundle the category definitions. */
  href: string;
}

/** The Join link of SPEC section 2: /go/{slug} records the click and redirects to the stored link. */
export function joinProps(s: Pick<CardServer, 'slug' | 'is_premium' | 'is_sponsored'>) {
  const paid = s.is_premium || s.is_sponsored;
  return {
    href: `/go/${encodeURIComponent(s.slug)}`,
    target: '_blank',
    rel: paid ? 'sponsored noopener' : 'nofollow ugc noopener',
    label: paid ? 'Join Premium' : 'Join Server',
    paid,
  };
}
