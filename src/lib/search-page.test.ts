import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SUBCATEGORIES, subcategoryPath } from './categories';
import { formatPercent } from './format';
import {
  filterWords,
  listingOf,
  SEARCH_PAGE,
  searchFilterOf,
  searchHref,
  searchPageFor,
  searchScope,
} from './search-page';

const at = (path: string) => new URL(path, 'https://g.example');

describe('searchPageFor', () => {
  it('sends a listing URL with a search to the search page of that listing', () => {
    expect(searchPageFor(at('/?search=bitcoin'))).toBe('/search?search=bitcoin');
    // The listing's filters and order come along: the search page shows the servers they let through.
    expect(searchPageFor(at('/servers?search=bitcoin&sort=newest'))).toBe('/search?search=bitcoin&sort=newest');
    expect(searchPageFor(at('/?search=btc&premium=true&min_members=1000&max_members=9999&bogus=1'))).toBe(
      '/search?search=btc&premium=true&min_members=1000&max_members=9999',
    );
    // The home's category chip, kept in its URL, scopes the search too.
    expect(searchPageFor(at('/?category=crypto&search=yield'))).toBe('/search?search=yield&category=crypto');
    expect(searchPageFor(at('/?search=yield&category=Sports%20Betting'))).toBe(
      '/search?search=yield&category=sports-betting',
    );
    expect(searchPageFor(at('/best-crypto-discord?search=defi+yield'))).toBe(
      '/search?search=defi+yield&category=crypto',
    );
    expect(searchPageFor(at('/best-crypto-discord/defi-discord?search=yield'))).toBe(
      '/search?search=yield&category=crypto&subcategory=defi-discord',
    );
  });

  it('leaves every other URL alone: no term, another page, an unknown listing', () => {
    for (const path of [
      '/',
      '/?search=',
      '/?search=%20%20',
      '/?category=crypto',
      '/server/apex?search=x',
      '/best-anime-discord?search=x',
      '/best-crypto-discord/no-such-discord?search=x',
      '/best-crypto-discord/page/2?search=x',
    ]) {
      expect(searchPageFor(at(path)), path).toBeNull();
    }
  });

  it('gives a search page whose scope is the listing and term it came from', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SUBCATEGORIES), fc.string({ minLength: 1, maxLength: 40 }), (sub, raw) => {
        const url = at(`${subcategoryPath(sub)}?${new URLSearchParams({ search: raw })}`);
        const target = searchPageFor(url);
        const scope = searchScope(new URLSearchParams(raw));
        if (!target) return;
        const page = at(target);
        expect(page.pathname).toBe(SEARCH_PAGE);
        const got = searchScope(page.searchParams);
        expect(got.subcategory).toBe(sub);
        expect(got.term.length).toBeGreaterThan(0);
        expect(listingOf(got)).toBe(subcategoryPath(sub));
        expect(scope.page).toBe(1);
      }),
    );
  });
});

describe('searchScope and searchHref', () => {
  it('read back what they write, and ignore unknown places and bad page numbers', () => {
    const scope = searchScope(new URLSearchParams('search=btc&category=crypto&subcategory=bitcoin-discord&page=3'));
    expect(scope.category?.name).toBe('Crypto');
    expect(scope.subcategory?.key).toBe('bitcoin');
    expect(scope.page).toBe(3);
    expect(searchScope(at(searchHref(scope)).searchParams)).toEqual(scope);
    expect(searchScope(new URLSearchParams('search=x&category=anime&subcategory=bitcoin-discord&page=0'))).toEqual({
      term: 'x',
      category: undefined,
      subcategory: undefined,
      page: 1,
      filters: {},
    });
    expect(listingOf({})).toBe('/#servers');
  });
});

describe('a search page’s filters', () => {
  it('keeps the valid filters and order in the API’s names, in a fixed order, and drops the rest', () => {
    const scope = searchScope(
      new URLSearchParams(
        'region=fr&search=x&checked_24h=true&premium=1&min_online_share=0.1&language=FR&sort=newest&max_members=9999&min_members=1000&page=2',
      ),
    );
    expect(scope.filters).toEqual({
      premium: 'true',
      min_members: '1000',
      max_members: '9999',
      min_online_share: '0.1',
      checked_24h: 'true',
      language: 'fr',
      region: 'FR',
      sort: 'newest',
    });
    expect(searchScope(at(searchHref(scope)).searchParams)).toEqual(scope);
    expect(searchHref(scope)).toBe(
      '/search?search=x&premium=true&min_members=1000&max_members=9999&min_online_share=0.1&checked_24h=true&language=fr&region=FR&sort=newest&page=2',
    );
    // Defaults say nothing; a bad value is dropped alone, the others stay.
    expect(
      searchScope(new URLSearchParams('search=x&premium=false&sort=members&language=&min_members=ten&region=GB'))
        .filters,
    ).toEqual({ region: 'GB' });
    expect(searchScope(new URLSearchParams('search=x&min_members=500&max_members=10')).filters).toEqual({
      min_members: '500',
    });
  });

  it('filter the query as the listing browsers do, and say so in words', () => {
    const filters = searchScope(
      new URLSearchParams(
        'search=x&premium=true&min_members=1000&max_members=9999&checked_24h=1&language=fr&sort=active',
      ),
    ).filters;
    expect(searchFilterOf(filters)).toEqual({
      premiumOnly: true,
      minMembers: 1000,
      maxMembers: 9999,
      checked24h: true,
      language: 'fr',
      sort: 'active',
    });
    expect(searchFilterOf({})).toEqual({});
    expect(filterWords(filters)).toEqual([
      'premium only',
      '1K to 10K members',
      'checked in the last 24 hours',
      'in French',
      'Most Active first',
    ]);
    expect(filterWords({ min_members: '250', min_online_share: '0.2', region: 'GB' })).toEqual([
      'at least 250 members',
      `${formatPercent(0.2)}+ of members online`,
      'from United Kingdom',
    ]);
  });
});
