import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, categoryPath } from '~/lib/categories';
import { DEFAULT_SORT, MEMBER_RANGES, MENU_SORTS, ONLINE_SHARE_CHOICES } from '~/lib/listing';
import { searchScope } from '~/lib/search-page';
import type { FilterCategory } from './card-data';
import {
  type BrowseQuery,
  BUILT_QUERY,
  filtersSet,
  fullListingHref,
  queryFromUrl,
  urlParamsOf,
} from './use-listing-browser';

const categories: FilterCategory[] = CATEGORIES.map((c) => ({
  name: c.name,
  slug: c.slug,
  href: categoryPath(c.slug),
}));
const regions = [
  { code: 'GB', name: 'United Kingdom' },
  { code: 'FR', name: 'France' },
];

const queries: fc.Arbitrary<BrowseQuery> = fc.record({
  category: fc.constantFrom('All', ...categories.map((c) => c.name)),
  premiumOnly: fc.boolean(),
  search: fc.string({ maxLength: 30 }).map((s) => s.trim()),
  sort: fc.constantFrom(...MENU_SORTS),
  size: fc.constantFrom(...MEMBER_RANGES.map((r) => r.key)),
  share: fc.constantFrom(...ONLINE_SHARE_CHOICES),
  checked24h: fc.boolean(),
  language: fc.constantFrom('', 'en', 'fr'),
  region: fc.constantFrom('', 'GB', 'FR'),
});

describe('the listing browser keeps its state in the URL', () => {
  it('reads back every state it writes: category chip, search, order and filters', () => {
    fc.assert(
      fc.property(queries, (q) => {
        const params = new URLSearchParams(urlParamsOf(q, categories));
        expect(queryFromUrl(params, categories, regions)).toEqual(q);
      }),
    );
  });

  it('writes the category chip by slug and the search, and nothing for the built list', () => {
    expect(urlParamsOf({ ...BUILT_QUERY, category: 'Sports Betting', search: 'nfl' }, categories)).toEqual({
      category: 'sports-betting',
      search: 'nfl',
    });
    expect(urlParamsOf(BUILT_QUERY, categories)).toEqual({});
    // A listing page has no chips: its category is its scope, never a URL parameter.
    expect(urlParamsOf({ ...BUILT_QUERY, category: 'Gaming' }, [])).toEqual({});
    expect(queryFromUrl(new URLSearchParams('category=Gaming&sort=bogus&region=zz'), categories, regions)).toEqual({
      ...BUILT_QUERY,
      category: 'Gaming',
      sort: DEFAULT_SORT,
    });
  });
});

describe('the home list’s “View All” link', () => {
  const pathAndParams = (href: string) => {
    const url = new URL(href, 'https://guildrank.example');
    return { path: url.pathname, params: url.searchParams };
  };

  it('leads to the full listing with the choices it shows: category page, order, language and region', () => {
    expect(fullListingHref(BUILT_QUERY, categories)).toBe('/servers');
    expect(fullListingHref({ ...BUILT_QUERY, category: 'Gaming', sort: 'active' }, categories)).toBe(
      '/best-gaming-discord?sort=active',
    );
    expect(fullListingHref({ ...BUILT_QUERY, language: 'fr', region: 'GB' }, categories)).toBe(
      '/servers?language=fr&region=GB',
    );
  });

  it('leads a searched list to the search page of its listing', () => {
    expect(fullListingHref({ ...BUILT_QUERY, search: 'nfl picks' }, categories)).toBe('/search?search=nfl+picks');
    expect(fullListingHref({ ...BUILT_QUERY, category: 'Sports Betting', search: 'nfl' }, categories)).toBe(
      '/search?search=nfl&category=sports-betting',
    );
  });

  it('opens the listing page on every filter the home list has set, so it shows the same servers', () => {
    // Premium Only and the size went missing: the page it led to listed servers the visitor had filtered out.
    expect(fullListingHref({ ...BUILT_QUERY, premiumOnly: true, size: 'medium' }, categories)).toBe(
      '/servers?premium=true&min_members=1000&max_members=9999',
    );
    fc.assert(
      fc.property(queries, (q) => {
        fc.pre(q.search === '');
        const { path, params } = pathAndParams(fullListingHref(q, categories));
        expect(path).toBe(categories.find((c) => c.name === q.category)?.href ?? '/servers');
        // The listing page's browser has no chips (its category is its scope) and reads its state
        // from the URL as the home's does.
        expect(queryFromUrl(params, [], regions)).toEqual({ ...q, category: 'All' });
      }),
    );
  });

  it('keeps every filter on the search page a searched list leads to', () => {
    expect(fullListingHref({ ...BUILT_QUERY, search: 'nfl', premiumOnly: true, size: 'huge' }, categories)).toBe(
      '/search?search=nfl&premium=true&min_members=100000',
    );
    fc.assert(
      fc.property(queries, (q) => {
        fc.pre(q.search !== '');
        const { path, params } = pathAndParams(fullListingHref(q, categories));
        expect(path).toBe('/search');
        const scope = searchScope(params);
        expect(scope.category?.name ?? 'All').toBe(q.category);
        expect(scope.filters).toEqual(urlParamsOf({ ...q, category: 'All', search: '' }, []));
        // The filters the search page reads are the browser's own.
        expect(queryFromUrl(new URLSearchParams(scope.filters), [], regions)).toEqual({
          ...q,
          category: 'All',
          search: '',
        });
      }),
    );
  });
});

describe('the Filters fold’s count', () => {
  it('counts each control moved from the built list, the search aside', () => {
    expect(filtersSet(BUILT_QUERY)).toBe(0);
    expect(filtersSet({ ...BUILT_QUERY, search: 'vault' })).toBe(0);
    expect(filtersSet({ ...BUILT_QUERY, premiumOnly: true, checked24h: true })).toBe(2);
    expect(filtersSet({ ...BUILT_QUERY, category: 'Crypto', sort: 'newest', size: 'medium', share: 0.1 })).toBe(4);
  });
  it('property: zero exactly for the built list’s choices, at most one per control', () => {
    fc.assert(
      fc.property(queries, (q) => {
        const n = filtersSet(q);
        // The URL carries each control off its default: none is the built list.
        expect(n === 0).toBe(Object.keys(urlParamsOf({ ...q, search: '' }, categories)).length === 0);
        expect(n).toBeLessThanOrEqual(Object.keys(BUILT_QUERY).length - 1);
      }),
    );
  });
});
