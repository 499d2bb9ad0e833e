import { describe, expect, it } from 'vitest';
import { categoryFilterName, compareServers, type ListedServer, matchesFilter, searchTerm } from './listing';

const server = (over: Partial<ListedServer>): ListedServer => ({
  id: 1,
  name: 'Pip Signals Room',
  description: 'Forex calls every morning',
  category: 'Trading',
  subcategory: 'Forex Trading',
  tags: ['Price Action'],
  members: 100,
  sort_order: 0,
  is_active: true,
  is_premium: false,
  is_sponsored: false,
  ...over,
});

describe('matchesFilter', () => {
  it('keeps only active servers of the five categories', () => {
    expect(matchesFilter(server({}), {})).toBe(true);
    expect(matchesFilter(server({ is_active: false }), {})).toBe(false);
    expect(matchesFilter(server({ category: 'Education' }), {})).toBe(false);
  });

  it('reads a subcategory key with hyphens as spaces, in any case, as part of the name', () => {
    expect(matchesFilter(server({}), { subcategory: 'forex-trading' })).toBe(true);
    expect(matchesFilter(server({}), { subcategory: 'FOREX' })).toBe(true);
    expect(matchesFilter(server({}), { subcategory: 'all' })).toBe(true);
    expect(matchesFilter(server({}), { subcategory: 'options-trading' })).toBe(false);
  });

  it('searches name, description and tags, case-insensitively', () => {
    expect(matchesFilter(server({}), { search: 'pip' })).toBe(true);
    expect(matchesFilter(server({}), { search: 'MORNING' })).toBe(true);
    expect(matchesFilter(server({}), { search: 'price action' })).toBe(true);
    expect(matchesFilter(server({}), { search: 'crypto' })).toBe(false);
  });

  it('keeps premium or sponsored servers only when asked', () => {
    expect(matchesFilter(server({}), { premiumOnly: true })).toBe(false);
    expect(matchesFilter(server({ is_sponsored: true }), { premiumOnly: true })).toBe(true);
  });
});

describe('compareServers', () => {
  it('sorts by members, or by the curated order then members, with id breaking ties', () => {
    const rows = [
      server({ id: 3, members: 50, sort_order: 9 }),
      server({ id: 2, members: 80 }),
      server({ id: 1, members: 80 }),
    ];
    expect([...rows].sort(compareServers('members')).map((s) => s.id)).toEqual([1, 2, 3]);
    expect([...rows].sort(compareServers('featured')).map((s) => s.id)).toEqual([3, 1, 2]);
  });
});

describe('filter inputs', () => {
  it('turns a category slug or any-case name into the stored name, and All into none', () => {
    expect(categoryFilterName('sports-betting')).toBe('Sports Betting');
    expect(categoryFilterName('gaming')).toBe('Gaming');
    expect(categoryFilterName('ALL')).toBeUndefined();
  });

  it('drops control characters from a search and treats a blank one as none', () => {
    expect(searchTerm(' a\u0000b ')).toBe('a b');
    expect(searchTerm('  ')).toBeUndefined();
  });
});
