import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SUBCATEGORIES, subcategoryPath } from './categories';
import { listingOf, SEARCH_PAGE, searchHref, searchPageFor, searchScope } from './search-page';

const at = (path: string) => new URL(path, 'https://g.example');

describe('searchPageFor', () => {
  it('sends a listing URL with a search to the search page of that listing', () => {
    expect(searchPageFor(at('/?search=bitcoin'))).toBe('/search?search=bitcoin');
    expect(searchPageFor(at('/servers?search=bitcoin&sort=newest'))).toBe('/search?search=bitcoin');
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
    });
    expect(listingOf({})).toBe('/#servers');
  });
});
