/**
 * The rules of the public listing, said once (SPEC section 7): which servers a filter keeps and in
 * what order they come. The SQL of db/queries/servers.ts is built from these constants, and the
 * same rules run in JavaScript over the build's rows (src/data/site-data.ts, the pages) and over
 * the sample servers the API falls back to (db/sample-data.ts). Pure: runs in the browser too.
 */
import { getCategoryByName, getCategoryBySlug, isListedCategory } from './categories';
import { LIMITS, type SortOrder } from './enums';

// No zod here: the islands import this module, and their bundles stay free of it.

/** The order a listing has when none is asked for: most members first. */
export const DEFAULT_SORT: SortOrder = 'members';

/** How the sort menus name each order. */
export const SORT_LABELS: Record<SortOrder, string> = { members: 'Most Members', featured: 'Featured' };

/**
 * The columns each order sorts on, each descending; id ascending breaks the last tie, so pages
 * never overlap. 'featured' is the operators' curated order (sort_order), then members.
 */
export const SORT_KEYS = {
  members: ['members'],
  featured: ['sort_order', 'members'],
} as const satisfies Record<SortOrder, readonly ('members' | 'sort_order')[]>;

/** Servers per page of GET /api/servers when the caller names no size: the home list's nine. */
export const DEFAULT_PAGE_SIZE = LIMITS.homeList;

/** Searches this long or longer use the trigram index (which cannot match fewer characters); shorter ones a LIKE scan. */
export const MIN_INDEXED_SEARCH = 3;

/** What a listing is filtered by: the fields of the filter bar, the search box and the category pages. */
export interface ListingFilter {
  /** Display name ('Gaming'); 'All', any case, or none for every category. */
  category?: string | undefined;
  /** Subcategory key ('day-trading') or name; 'all' or none is ignored. */
  subcategory?: string | undefined;
  search?: string | undefined;
  /** Premium and sponsored servers only. */
  premiumOnly?: boolean | undefined;
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
  sort_order: number;
  is_active: boolean;
  is_premium: boolean;
  is_sponsored: boolean;
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

/** Whether a server is listed (active, in one of the five categories) and passes `filter`. */
export function matchesFilter(s: ListedServer, filter: ListingFilter): boolean {
  if (!s.is_active || !isListedCategory(s.category)) return false;
  if (!isAll(filter.category) && s.category !== filter.category) return false;
  if (!matchesSubcategory(s.subcategory, filter.subcategory)) return false;
  if (filter.premiumOnly && !isPaidPlacement(s)) return false;
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
  const keys = SORT_KEYS[sort];
  return (a: ListedServer, b: ListedServer): number => {
    for (const key of keys) if (a[key] !== b[key]) return b[key] - a[key];
    return a.id - b.id;
  };
}

/** One page of the servers that pass `filter`, in `sort` order, with how many pass in all. */
export function pageOfServers<T extends ListedServer>(
  servers: readonly T[],
  filter: ListingFilter & { sort?: SortOrder | undefined; page?: number | undefined; perPage?: number | undefined },
): { servers: T[]; total: number } {
  const matching = servers.filter((s) => matchesFilter(s, filter)).sort(compareServers(filter.sort));
  const perPage = filter.perPage ?? DEFAULT_PAGE_SIZE;
  const start = ((filter.page ?? 1) - 1) * perPage;
  return { servers: matching.slice(start, start + perPage), total: matching.length };
}
