import type { CATEGORY_NAMES } from '~/lib/categories';
import type { InviteStatus } from '~/lib/enums';
import { joinTarget } from '~/lib/invite';
import { guildIconUrl } from '~/lib/invite-checks/guild-icon';
import { inviteView } from '~/lib/invite-checks/invite-state';
import { shownRating } from '~/lib/reviews/summary';

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
  /** Shown in place of the Join button when the invite stopped working or is paused (inviteView). */
  invite_notice: string | null;
  /** ISO 639-1 language and ISO 3166-1 region (#19), null until set. */
  language: string | null;
  region: string | null;
  /** The paid placement's period (ISO), null when not recorded: "About this placement" says which. */
  placement_started_at: string | null;
  placement_ends_at: string | null;
  /** How the running placement came (#30): 'checkout' (paid by the owner), 'comp' (granted free by operators), null unknown. */
  placement_kind: 'checkout' | 'comp' | null;
  /** The average of its member reviews (#31, the spec's `rating`), null until REVIEWS_SHOWN_MIN show. */
  rating: number | null;
  /** How many member reviews show. */
  review_count: number;
}

/** A listing's icon: the guild's icon on Discord's CDN once checked, else the stored image (else initials). */
export function iconSrc(s: { image_url: string | null; guild_id?: unknown; guild_icon?: unknown }): string | null {
  const fromDiscord =
    typeof s.guild_id === 'string' && typeof s.guild_icon === 'string' ? guildIconUrl(s.guild_id, s.guild_icon) : null;
  return fromDiscord ?? s.image_url;
}

/** A card's rating (#31): the average once at least REVIEWS_SHOWN_MIN member reviews show, else none. */
function cardRating(s: Record<string, unknown>): { rating: number | null; review_count: number } {
  return { rating: shownRating(s), review_count: typeof s.review_count === 'number' ? s.review_count : 0 };
}

/** Narrows a full server row (build data or API JSON) to the card's public fields. */
export function toCard(
  s: Omit<
    CardServer,
    | 'has_link'
    | 'invite_notice'
    | 'language'
    | 'region'
    | 'placement_started_at'
    | 'placement_ends_at'
    | 'placement_kind'
    | 'rating'
    | 'review_count'
  > & {
    affiliate_link?: string | null | undefined;
    invite_status?: InviteStatus | null | undefined;
  } & Record<string, unknown>,
): CardServer {
  const invite = inviteView(s.invite_status);
  return {
    id: s.id,
    name: s.name,
    slug: s.slug,
    description: s.description,
    category: s.category,
    members: s.members,
    image_url: iconSrc(s),
    tags: (s.tags ?? []).slice(0, 3),
    is_premium: Boolean(s.is_premium),
    is_sponsored: Boolean(s.is_sponsored),
    has_link: joinTarget(s.affiliate_link) !== null,
    invite_notice: invite.join ? null : invite.notice,
    language: typeof s.language === 'string' ? s.language : null,
    region: typeof s.region === 'string' ? s.region : null,
    placement_started_at: typeof s.placement_started_at === 'string' ? s.placement_started_at : null,
    placement_ends_at: typeof s.placement_ends_at === 'string' ? s.placement_ends_at : null,
    placement_kind: s.placement_kind === 'checkout' || s.placement_kind === 'comp' ? s.placement_kind : null,
    ...cardRating(s),
  };
}

/** A category button of the filter bar. */
export interface FilterCategory {
  name: (typeof CATEGORY_NAMES)[number];
  slug: string;
  /** The category page, passed in so the island does not bundle the category definitions. */
  href: string;
}

/** Whether a card is a paid placement (Premium or Sponsored): labelled, coloured, never given an organic rank. */
export const isPaidCard = (s: Pick<CardServer, 'is_premium' | 'is_sponsored'>): boolean =>
  s.is_premium || s.is_sponsored;

/**
 * The card's Join link: /go/{slug} records the click and redirects to the stored link.
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
