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
import { searchTerm } from './listing';

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
}

/** The scope a search page's query asks for; an unknown category or subcategory searches the wider listing. */
export function searchScope(params: URLSearchParams): SearchScope {
  const term = searchTerm(params.get('search')?.slice(0, 100) ?? undefined) ?? '';
  const category = getCategoryBySlug(params.get('category') ?? '');
  const subcategory = category ? getSubcategory(category.slug, params.get('subcategory') ?? '') : undefined;
  const raw = params.get('page') ?? '';
  const page = /^[1-9][0-9]{0,5}$/.test(raw) ? Number(raw) : 1;
  return { term, category, subcategory, page };
}

/** The URL of a search page for `scope` (page 1 unless given). */
export function searchHref(scope: SearchScope): string {
  const params = new URLSearchParams({ search: scope.term });
  if (scope.category) params.set('category', scope.category.slug);
  if (scope.subcategory) params.set('subcategory', scope.subcategory.slug);
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
  if (path === '/' || path === '/servers') return searchHref({ term, category: chosen, page: 1 });
  const listing = /^\/best-([a-z0-9-]+)-discord(?:\/([a-z0-9-]+))?$/.exec(path);
  const category = listing ? getCategoryBySlug(listing[1]!) : undefined;
  if (!category) return null;
  const subcategory = listing?.[2] ? getSubcategory(category.slug, listing[2]) : undefined;
  if (listing?.[2] && !subcategory) return null;
  return searchHref({ term, category, subcategory, page: 1 });
}
