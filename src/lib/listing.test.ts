import { describe, expect, it } from 'vitest';
import {
  categoryFilterName,
  compareServers,
  hasPage,
  isListed,
  type ListedServer,
  matchesFilter,
  searchTerm,
} from './listing';

const server = (over: Partial<ListedServer>): ListedServer => ({
  id: 1,
  name: 'Pip Signals Room',
  description: 'Forex calls every morning',
  category: 'Trading',
  subcategory: 'Forex Trading',
  tags: ['Price Action'],
  members: 100,
  active_users: 10,
  sort_order: 0,
  is_active: true,
  is_premium: false,
  is_sponsored: false,
  created_at: '2026-01-01T00:00:00.000Z',
  invite_status: 'ok',
  last_ok_at: null,
  rank_score: 0,
  growth_30d: 0,
  language: null,
  region: null,
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

  it('keeps a subcategory within its category: the same subcategory name in another category does not pass', () => {
    const dayTrading = (category: string) => server({ category, subcategory: 'Day Trading' });
    expect(matchesFilter(dayTrading('Investing'), { category: 'Investing', subcategory: 'day-trading' })).toBe(true);
    expect(matchesFilter(dayTrading('Trading'), { category: 'Investing', subcategory: 'day-trading' })).toBe(false);
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

describe('the invite rule', () => {
  it('takes dead and wrong_guild listings off the listing; keeps a page for dead ones only', () => {
    for (const status of ['unchecked', 'ok', 'paused', 'expiring', 'suspect'] as const) {
      expect(isListed(server({ invite_status: status })), status).toBe(true);
      expect(matchesFilter(server({ invite_status: status }), {}), status).toBe(true);
    }
    expect(isListed(server({ invite_status: 'dead' }))).toBe(false);
    expect(matchesFilter(server({ invite_status: 'dead' }), {})).toBe(false);
    expect(hasPage(server({ invite_status: 'dead' }))).toBe(true);
    expect(isListed(server({ invite_status: 'wrong_guild' }))).toBe(false);
    expect(hasPage(server({ invite_status: 'wrong_guild' }))).toBe(false);
    expect(hasPage(server({ is_active: false }))).toBe(false);
  });
});

describe('the freshness filters', () => {
  const now = Date.parse('2026-06-02T12:00:00.000Z');
  it('keep a member range, both ends included', () => {
    expect(matchesFilter(server({ members: 100 }), { minMembers: 100, maxMembers: 100 })).toBe(true);
    expect(matchesFilter(server({ members: 99 }), { minMembers: 100 })).toBe(false);
    expect(matchesFilter(server({ members: 101 }), { maxMembers: 100 })).toBe(false);
  });

  it('keep an online share of at least the minimum, never a server with no members', () => {
    expect(matchesFilter(server({ members: 100, active_users: 25 }), { minOnlineShare: 0.25 })).toBe(true);
    expect(matchesFilter(server({ members: 100, active_users: 24 }), { minOnlineShare: 0.25 })).toBe(false);
    expect(matchesFilter(server({ members: 0, active_users: 0 }), { minOnlineShare: 0.1 })).toBe(false);
    expect(matchesFilter(server({ members: 0, active_users: 0 }), { minOnlineShare: 0 })).toBe(true);
  });

  it('keep servers whose invite answered in the last 24 hours', () => {
    const at = (iso: string | null) => matchesFilter(server({ last_ok_at: iso }), { checked24h: true }, now);
    expect(at('2026-06-01T12:00:00.000Z')).toBe(true);
    expect(at('2026-06-01T11:59:59.999Z')).toBe(false);
    expect(at(null)).toBe(false);
  });
});

describe('compareServers', () => {
  it('sorts Most Active by rank score, Growing by growth, then members; Newest by age', () => {
    const rows = [
      server({ id: 1, members: 10, rank_score: 0.5, growth_30d: 0.1, created_at: '2026-03-01T00:00:00.000Z' }),
      server({ id: 2, members: 90, rank_score: 0.5, growth_30d: -0.2, created_at: '2026-05-01T00:00:00.000Z' }),
      server({ id: 3, members: 50, rank_score: 0.9, growth_30d: 0.1, created_at: '2026-04-01T00:00:00.000Z' }),
    ];
    expect([...rows].sort(compareServers('active')).map((s) => s.id)).toEqual([3, 2, 1]);
    expect([...rows].sort(compareServers('growing')).map((s) => s.id)).toEqual([3, 1, 2]);
    expect([...rows].sort(compareServers('newest')).map((s) => s.id)).toEqual([2, 3, 1]);
  });

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
