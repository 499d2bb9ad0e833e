/**
 * The rules of the public listing, said once: which servers a filter keeps and in
 * what order they come. The SQL of db/queries/servers.ts is built from these constants, and the
 * same rules run in JavaScript over the build's rows (src/data/site-data.ts, the pages) and over
 * the sample servers the API falls back to (db/sample-data.ts). Pure: runs in the browser too.
 */
import { getCategoryByName, getCategoryBySlug, isListedCategory } from './categories';
import { type InviteStatus, LIMITS, type SortOrder } from './enums';

// No zod here: the islands import this module, and their bundles stay free of it.

/** The order a listing has when none is asked for: most members first. */
export const DEFAULT_SORT: SortOrder = 'members';

/** The orders a visitor picks from, in menu order; 'featured' is Premium Picks' curated order, not on the menus. */
export const MENU_SORTS = ['members', 'active', 'newest', 'growing'] as const satisfies readonly SortOrder[];

/** How the sort menus name each order. */
export const SORT_LABELS: Record<SortOrder, string> = {
  members: 'Most Members',
  active: 'Most Active',
  newest: 'Newest',
  growing: 'Growing',
  featured: 'Featured',
};

/** A column an order sorts on: numbers, or ISO times whose text order is time order. */
type SortColumn = 'members' | 'sort_order' | 'rank_score' | 'created_at' | 'growth_30d';

/**
 * The columns each order sorts on, each descending; id ascending breaks the last tie, so pages
 * never overlap. 'active' is the rank score (checked signals only, src/lib/ranking/formula.ts),
 * 'growing' the 30-day member growth, both then members; 'newest' the listing's age;
 * 'featured' is the operators' curated order (sort_order), then members.
 */
export const SORT_KEYS = {
  members: ['members'],
  active: ['rank_score', 'members'],
  newest: ['created_at'],
  growing: ['growth_30d', 'members'],
  featured: ['sort_order', 'members'],
} as const satisfies Record<SortOrder, readonly SortColumn[]>;

/**
 * Invite states that take a listing off every listing, search, count and the sitemap: Discord no
 * longer knows the invite after repeated failures (dead), or it opens another guild (wrong_guild).
 * Both come back by themselves once a check finds the invite working again.
 */
export const UNLISTED_INVITE_STATUSES = ['dead', 'wrong_guild'] as const satisfies readonly InviteStatus[];

/** Invite states whose listing gets no page at all: an invite to another guild is not this listing's. */
export const PAGELESS_INVITE_STATUSES = ['wrong_guild'] as const satisfies readonly InviteStatus[];

/** How long "checked in the last 24 hours" looks back. */
export const CHECKED_WITHIN_MS = 24 * 60 * 60 * 1000;

/** The oldest last_ok_at (ISO text, comparable as text) that counts as checked in the last 24 hours at `now`. */
export const checkedSince = (now: number): string => new Date(now - CHECKED_WITHIN_MS).toISOString();

/** The member ranges the home filter offers (both ends included; none: any size). */
export const MEMBER_RANGES = [
  { key: 'any', label: 'Any size' },
  { key: 'small', label: 'Under 1K members', max: 999 },
  { key: 'medium', label: '1K to 10K members', min: 1_000, max: 9_999 },
  { key: 'large', label: '10K to 100K members', min: 10_000, max: 99_999 },
  { key: 'huge', label: '100K+ members', min: 100_000 },
] as const satisfies readonly { key: string; label: string; min?: number; max?: number }[];
export type MemberRangeKey = (typeof MEMBER_RANGES)[number]['key'];

/** The minimum online shares the home filter offers (0: any). */
export const ONLINE_SHARE_CHOICES = [0, 0.05, 0.1, 0.2, 0.3] as const;

/** Servers per page of GET /api/servers when the caller names no size: the home list's nine. */
export const DEFAULT_PAGE_SIZE = LIMITS.homeList;

/** Searches this long or longer use the trigram index (which cannot match fewer characters); shorter ones a LIKE scan. */
export const MIN_INDEXED_SEARCH = 3;

/**
 * Listings a search shorter than MIN_INDEXED_SEARCH looks among: the first this many of the order
 * that pass the other filters (db/queries/servers.ts, shortTermSearch). A LIKE test of every
 * listing read all of them for a rare pair of letters: 3-10 s at a million listings.
 */
export const SHORT_TERM_WINDOW = 2_000;

/** What a listing is filtered by: the fields of the filter bar, the search box and the category pages. */
export interface ListingFilter {
  /** Display name ('Gaming'); 'All', any case, or none for every category. */
  category?: string | undefined;
  /** Subcategory key ('day-trading') or name; 'all' or none is ignored. */
  subcategory?: string | undefined;
  search?: string | undefined;
  /** Premium and sponsored servers only. */
  premiumOnly?: boolean | undefined;
  /** Member range, both ends included. */
  minMembers?: number | undefined;
  maxMembers?: number | undefined;
  /** Online share (active_users / members, from Discord's counts) at least this, 0 to 1; 0 or none: no filter. */
  minOnlineShare?: number | undefined;
  /** Only servers whose invite answered within the last 24 hours (last_ok_at). */
  checked24h?: boolean | undefined;
  /** Primary language, an ISO 639-1 code (src/lib/languages.ts); none: every language. */
  language?: string | undefined;
  /** Region, an ISO 3166-1 alpha-2 code; none: every region. */
  region?: string | undefined;
}

/** The fields of a server the listing rules read. */
export interface ListedServer {
  id: number;
  name: string;
  description: string;
  category: string;
  subcategory: string | null;
  tags: readonly string[];
  members: number;
  /** Discord's approximate online count once checked. */
  active_users: number;
  sort_order: number;
  is_active: boolean;
  is_premium: boolean;
  is_sponsored: boolean;
  created_at: string;
  invite_status: InviteStatus;
  /** When a check last found the invite working (ISO), or null. */
  last_ok_at: string | null;
  rank_score: number;
  growth_30d: number;
  /** ISO 639-1 language and ISO 3166-1 region, null until set (#19). */
  language: string | null;
  region: string | null;
}

/**
 * Characters a search box never needs and the full-text index cannot take (a NUL ends the FTS5
 * query string early): C0 controls, DEL, C1 controls and unpaired UTF-16 surrogates.
 */
export const SEARCH_UNSAFE_CHARS =
  /[\u0000-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Whether a filter value means "no filter": absent, empty or 'all' in any case. */
export const isAll = (value: string | undefined): boolean => !value || value.toLowerCase() === 'all';

/** A category filter from a URL or a form: 'All', a display name (any case) or a slug -> the stored name, or undefined for all. */
export function categoryFilterName(input: string | undefined): string | undefined {
  if (!input || isAll(input)) return undefined;
  return getCategoryByName(input)?.name ?? getCategoryBySlug(input.toLowerCase())?.name ?? input;
}

/**
 * The search as the listing uses it: trimmed, with the characters the schemas refuse turned into
 * spaces, or undefined for none. The handlers answer 400 before this; it keeps every other
 * caller's input (a build, a script) from reaching FTS5, where a NUL ends the quoted phrase.
 */
export function searchTerm(raw: string | undefined): string | undefined {
  const term = raw?.replace(SEARCH_UNSAFE_CHARS, ' ').trim();
  return term || undefined;
}

/** The subcategory rule: a key's hyphens read as spaces, matched case-insensitively as part of the stored name. */
export const subcategoryNeedle = (key: string): string => key.replace(/-/g, ' ').toLowerCase();

/** Whether a stored subcategory passes a subcategory filter ('all' or none passes everything). */
export const matchesSubcategory = (subcategory: string | null, key: string | undefined): boolean =>
  isAll(key) || (subcategory ?? '').toLowerCase().includes(subcategoryNeedle(key!));

/** A premium or sponsored placement: what "Premium Only" and Premium Picks keep. */
export const isPaidPlacement = (s: Pick<ListedServer, 'is_premium' | 'is_sponsored'>): boolean =>
  s.is_premium || s.is_sponsored;

const within = (status: InviteStatus, list: readonly InviteStatus[]) => list.includes(status);

/**
 * Whether a server is on the public listing (every listing page, search, Premium Picks, category
 * counts, the sitemap, GET /api/servers): active, in one of the five categories, and its invite
 * not dead or pointing to another guild.
 */
export const isListed = (s: Pick<ListedServer, 'is_active' | 'category' | 'invite_status'>): boolean =>
  s.is_active && isListedCategory(s.category) && !within(s.invite_status, UNLISTED_INVITE_STATUSES);

/**
 * Why a server is not on the public listing (isListed), in words an operator reads in the console,
 * or null when it is listed: the console shows what the site lists by this same rule.
 */
export function whyUnlisted(s: Pick<ListedServer, 'is_active' | 'category' | 'invite_status'>): string | null {
  if (!s.is_active) return 'Hidden by an operator';
  if (!isListedCategory(s.category)) return `Not listed: ${s.category} is not a category the site shows`;
  if (s.invite_status === 'wrong_guild') return 'Not listed: its invite opens another server';
  if (within(s.invite_status, UNLISTED_INVITE_STATUSES)) return 'Not listed: its invite no longer works';
  return null;
}

/**
 * Whether a server has its own page: every listed server, and a dead one too (its page says the
 * invite stopped working, and asks not to be indexed), but not one whose invite opens another guild.
 */
export const hasPage = (s: Pick<ListedServer, 'is_active' | 'category' | 'invite_status'>): boolean =>
  s.is_active && isListedCategory(s.category) && !within(s.invite_status, PAGELESS_INVITE_STATUSES);

/**
 * The online-share rule (active_users >= share * members, members above 0): one product, not a
 * division, so JavaScript and SQLite compute the same double at the boundary.
 */
export const hasOnlineShare = (s: Pick<ListedServer, 'members' | 'active_users'>, share: number): boolean =>
  s.members > 0 && s.active_users >= share * s.members;

/**
 * Whether a server is listed (isListed) and passes `filter`; `now` (ms) is the clock of
 * "checked in the last 24 hours".
 */
export function matchesFilter(s: ListedServer, filter: ListingFilter, now = Date.now()): boolean {
  if (!isListed(s)) return false;
  if (!isAll(filter.category) && s.category !== filter.category) return false;
  if (!matchesSubcategory(s.subcategory, filter.subcategory)) return false;
  if (filter.premiumOnly && !isPaidPlacement(s)) return false;
  if (filter.minMembers !== undefined && s.members < filter.minMembers) return false;
  if (filter.maxMembers !== undefined && s.members > filter.maxMembers) return false;
  if (filter.minOnlineShare && !hasOnlineShare(s, filter.minOnlineShare)) return false;
  if (filter.checked24h && !(s.last_ok_at !== null && s.last_ok_at >= checkedSince(now))) return false;
  if (filter.language && s.language !== filter.language) return false;
  if (filter.region && s.region !== filter.region) return false;
  const term = searchTerm(filter.search)?.toLowerCase();
  return (
    !term ||
    s.name.toLowerCase().includes(term) ||
    s.description.toLowerCase().includes(term) ||
    s.tags.some((t) => t.toLowerCase().includes(term))
  );
}

/** The comparator of a sort order (for Array.prototype.sort): SORT_KEYS descending, then id ascending. */
export function compareServers(sort: SortOrder = DEFAULT_SORT) {
  const keys: readonly SortColumn[] = SORT_KEYS[sort];
  return (a: Pick<ListedServer, SortColumn | 'id'>, b: Pick<ListedServer, SortColumn | 'id'>): number => {
    for (const key of keys) if (a[key] !== b[key]) return a[key] < b[key] ? 1 : -1;
    return a.id - b.id;
  };
}

/** One page of the servers that pass `filter` (at `now`, ms), in `sort` order, with how many pass in all. */
export function pageOfServers<T extends ListedServer>(
  servers: readonly T[],
  filter: ListingFilter & { sort?: SortOrder | undefined; page?: number | undefined; perPage?: number | undefined },
  now = Date.now(),
): { servers: T[]; total: number } {
  const matching = servers.filter((s) => matchesFilter(s, filter, now)).sort(compareServers(filter.sort));
  const perPage = filter.perPage ?? DEFAULT_PAGE_SIZE;
  const start = ((filter.page ?? 1) - 1) * perPage;
  return { servers: matching.slice(start, start + perPage), total: matching.length };
}
