/**
 * The search results page (`/search`, rendered on request): what a search form sends without
 * JavaScript, and where a listing's own URL with `?search=` leads (issue 28 item 4). Pure: the
 * page reads its scope from its query, the Node server redirects listing URLs with it here.
 */
import {
  CATEGORIES,
  type CategoryDef,
  categoryPath,
  getCategoryBySlug,
  getSubcategory,
  type SubcategoryDef,
  subcategoryPath,
} from './categories';
import type { SortOrder } from './enums';
import { formatNumber, formatPercent } from './format';
import { getLanguage } from './languages';
import { DEFAULT_SORT, type ListingFilter, MEMBER_RANGES, SORT_LABELS, searchTerm } from './listing';
import { regionName } from './regions';
import { serverQuerySchema } from './schemas/server';

/** Path of the search results page. Its answer depends on its query, so no page cache keeps it by path. */
export const SEARCH_PAGE = '/search';

/** What a search page searches: a term within every listing, a category or one of its subcategories, and a page of matches. */
export interface SearchScope {
  /** The cleaned term (searchTerm), '' for none. */
  term: string;
  category?: CategoryDef | undefined;
  subcategory?: SubcategoryDef | undefined;
  /** 1-based page of matches. */
  page: number;
  /** The listing's filters and order kept beside the term (a listing browser's, or the home's "View All"). */
  filters: SearchFilters;
}

/**
 * The filters and order of a listing a search keeps, in the API's parameter names (the names the
 * listing browsers keep in their URL), in the order a search page's URL writes them.
 */
export const SEARCH_FILTER_KEYS = [
  'premium',
  'min_members',
  'max_members',
  'min_online_share',
  'checked_24h',
  'language',
  'region',
  'sort',
] as const;
export type SearchFilters = Partial<Record<(typeof SEARCH_FILTER_KEYS)[number], string>>;

/**
 * The valid filters of a query, as GET /api/servers reads them (serverQuerySchema), written back in
 * one form; a default says nothing, and a refused value is dropped alone (the others stay).
 */
function searchFilters(params: URLSearchParams): SearchFilters {
  const asked: Record<string, string> = {};
  for (const key of SEARCH_FILTER_KEYS) {
    const value = params.get(key);
    if (value !== null) asked[key] = value;
  }
  let parsed = serverQuerySchema.safeParse(asked);
  while (!parsed.success) {
    const bad = new Set(parsed.error.issues.map((i) => String(i.path[0])));
    for (const key of bad) delete asked[key];
    if (bad.size === 0) return {};
    parsed = serverQuerySchema.safeParse(asked);
  }
  const q = parsed.data;
  const kept: Record<(typeof SEARCH_FILTER_KEYS)[number], string | undefined> = {
    premium: q.premium ? 'true' : undefined,
    min_members: q.min_members === undefined ? undefined : String(q.min_members),
    max_members: q.max_members === undefined ? undefined : String(q.max_members),
    min_online_share: q.min_online_share ? String(q.min_online_share) : undefined,
    checked_24h: q.checked_24h ? 'true' : undefined,
    language: q.language || undefined,
    region: q.region || undefined,
    sort: q.sort === DEFAULT_SORT ? undefined : q.sort,
  };
  return Object.fromEntries(SEARCH_FILTER_KEYS.flatMap((key) => (kept[key] ? [[key, kept[key]]] : [])));
}

/** The listing filter and order of a search page's kept filters (already valid: from searchScope). */
export function searchFilterOf(f: SearchFilters): ListingFilter & { sort?: SortOrder } {
  return {
    ...(f.premium && { premiumOnly: true }),
    ...(f.min_members && { minMembers: Number(f.min_members) }),
    ...(f.max_members && { maxMembers: Number(f.max_members) }),
    ...(f.min_online_share && { minOnlineShare: Number(f.min_online_share) }),
    ...(f.checked_24h && { checked24h: true }),
    ...(f.language && { language: f.language }),
    ...(f.region && { region: f.region }),
    ...(f.sort && { sort: f.sort as SortOrder }),
  };
}

/** What kept filters let through, in words ("premium only", "1K to 10K members", "Newest first"). */
export function filterWords(f: SearchFilters): string[] {
  const min = f.min_members ? Number(f.min_members) : undefined;
  const max = f.max_members ? Number(f.max_members) : undefined;
  const range = MEMBER_RANGES.find(
    (r) => ('min' in r ? r.min : undefined) === min && ('max' in r ? r.max : undefined) === max,
  );
  const size =
    min === undefined && max === undefined
      ? undefined
      : range
        ? range.label
        : min !== undefined && max !== undefined
          ? `${formatNumber(min)} to ${formatNumber(max)} members`
          : min !== undefined
            ? `at least ${formatNumber(min)} members`
            : `at most ${formatNumber(max!)} members`;
  const language = getLanguage(f.language)?.name;
  const region = regionName(f.region);
  return [
    ...(f.premium ? ['premium only'] : []),
    ...(size ? [size] : []),
    ...(f.min_online_share ? [`${formatPercent(Number(f.min_online_share))}+ of members online`] : []),
    ...(f.checked_24h ? ['checked in the last 24 hours'] : []),
    ...(language ? [`in ${language}`] : []),
    ...(region ? [`from ${region}`] : []),
    ...(f.sort ? [`${SORT_LABELS[f.sort as SortOrder]} first`] : []),
  ];
}

/** The scope a search page's query asks for; an unknown category or subcategory searches the wider listing. */
export function searchScope(params: URLSearchParams): SearchScope {
  const term = searchTerm(params.get('search')?.slice(0, 100) ?? undefined) ?? '';
  const category = getCategoryBySlug(params.get('category') ?? '');
  const subcategory = category ? getSubcategory(category.slug, params.get('subcategory') ?? '') : undefined;
  const raw = params.get('page') ?? '';
  const page = /^[1-9][0-9]{0,5}$/.test(raw) ? Number(raw) : 1;
  return { term, category, subcategory, page, filters: searchFilters(params) };
}

/** The URL of a search page for `scope` (page 1 unless given, no filters unless given). */
export function searchHref(scope: Omit<SearchScope, 'filters'> & { filters?: SearchFilters | undefined }): string {
  const filters = scope.filters ?? {};
  const params = new URLSearchParams({ search: scope.term });
  if (scope.category) params.set('category', scope.category.slug);
  if (scope.subcategory) params.set('subcategory', scope.subcategory.slug);
  for (const key of SEARCH_FILTER_KEYS) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  if (scope.page > 1) params.set('page', String(scope.page));
  return `${SEARCH_PAGE}?${params}`;
}

/** The listing a search searches: where "Clear search" leads (the home list for every server). */
export function listingOf(scope: Pick<SearchScope, 'category' | 'subcategory'>): string {
  if (scope.subcategory) return subcategoryPath(scope.subcategory);
  if (scope.category) return categoryPath(scope.category.slug);
  return '/#servers';
}

/**
 * Where a listing URL with a search belongs: `/?search=x`, `/best-crypto-discord?search=x` or a
 * subcategory page's, as the search page of that listing; null for any other URL or no term.
 * The built listing pages are files that cannot read their query: without JavaScript the search
 * would show the whole list.
 */
export function searchPageFor(url: URL): string | null {
  const term = searchTerm(url.searchParams.get('search')?.slice(0, 100) ?? undefined);
  if (!term) return null;
  const path = url.pathname.replace(/\/+$/, '') || '/';
  // The home list keeps its category chip in ?category= (a slug, or a name as older links have it).
  const chip = path === '/' ? (url.searchParams.get('category') ?? '') : '';
  const chosen = CATEGORIES.find((c) => c.slug === chip || c.name.toLowerCase() === chip.toLowerCase());
  // The listing's filters and order come along, so the search page shows the servers they let through.
  const filters = searchFilters(url.searchParams);
  if (path === '/' || path === '/servers') return searchHref({ term, category: chosen, page: 1, filters });
  const listing = /^\/best-([a-z0-9-]+)-discord(?:\/([a-z0-9-]+))?$/.exec(path);
  const category = listing ? getCategoryBySlug(listing[1]!) : undefined;
  if (!category) return null;
  const subcategory = listing?.[2] ? getSubcategory(category.slug, listing[2]) : undefined;
  if (listing?.[2] && !subcategory) return null;
  return searchHref({ term, category, subcategory, page: 1, filters });
}
