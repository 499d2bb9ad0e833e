import { describe, expect, it } from 'vitest';
import type { ListingKey, ListingRow } from '../../db/queries/servers';
import { toolEnv } from '../../functions/_app/env';
import { CATEGORIES, SUBCATEGORIES } from '../lib/categories';
import { LIMITS } from '../lib/enums';
import { placeListing } from '../lib/placement';
import { listingPageFromList } from './listing-page';
import {
  cardIds,
  cardsOf,
  mergeContent,
  premiumPicks,
  serversInCategory,
  serversInSubcategory,
  text,
} from './site-data';

describe('mergeContent', () => {
  it('falls back to the code defaults when site_content has no row', () => {
    const content = mergeContent([]);
    expect(text(content, 'home.hero.heading')).toBe('Find the Best Discord Servers');
  });
  it('lets an operator override a text, but not with a blank value', () => {
    const content = mergeContent([
      { page: 'home', section: 'hero', content_key: 'heading', content_value: 'Discord, ranked' },
      { page: 'global', section: 'footer', content_key: 'tagline', content_value: '   ' },
    ]);
    expect(text(content, 'home.hero.heading')).toBe('Discord, ranked');
    expect(text(content, 'global.footer.tagline')).toMatch(/honest directory/);
  });
});

describe('serversInSubcategory', () => {
  it('matches the key with hyphens as spaces, case-insensitively, within the category', () => {
    const rows = [
      { category: 'Investing', subcategory: 'Day Trading' },
      { category: 'Trading', subcategory: 'Day Trading' },
      { category: 'Investing', subcategory: 'Stocks' },
    ] as Parameters<typeof serversInSubcategory>[0];
    expect(serversInSubcategory(rows, 'Investing', 'day-trading')).toHaveLength(1);
  });
});

describe('serversInCategory', () => {
  it('keeps the listing order within each category and knows no other categories', () => {
    const rows = [
      { id: 1, category: 'Gaming' },
      { id: 2, category: 'Crypto' },
      { id: 3, category: 'Gaming' },
    ] as Parameters<typeof serversInCategory>[0];
    expect(serversInCategory(rows, 'Gaming').map((s) => s.id)).toEqual([1, 3]);
    expect(serversInCategory(rows, 'Crypto').map((s) => s.id)).toEqual([2]);
    expect(serversInCategory(rows, 'Investing')).toEqual([]);
  });
  it('answers for the list it is given, not an earlier one', () => {
    const before = [{ id: 1, category: 'Gaming' }] as Parameters<typeof serversInCategory>[0];
    const after = [{ id: 2, category: 'Gaming' }] as Parameters<typeof serversInCategory>[0];
    expect(serversInCategory(before, 'Gaming').map((s) => s.id)).toEqual([1]);
    expect(serversInCategory(after, 'Gaming').map((s) => s.id)).toEqual([2]);
  });
});

describe('cardIds', () => {
  /** A listing of `n` servers, most members first, across every category and subcategory; `paidShare` of them paid. */
  function listing(n: number, paidShare: number, seed: number): ListingKey[] {
    let x = seed;
    const random = () => {
      x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
      return x / 2 ** 32;
    };
    return Array.from({ length: n }, (_, i) => {
      const category = CATEGORIES[Math.floor(random() * CATEGORIES.length)]!;
      const subs = SUBCATEGORIES.filter((s) => s.parentCategory === category.name);
      let sub = random() < 0.8 ? subs[Math.floor(random() * subs.length)] : undefined;
      // One subcategory only in the listing's tail: its page shows servers no category page does.
      if (sub === SUBCATEGORIES[0] && i < n * 0.9) sub = undefined;
      const paid = random() < paidShare;
      return {
        id: i + 1,
        category: category.name,
        subcategory: sub?.name ?? null,
        members: n - i,
        active_users: Math.floor(random() * 100),
        sort_order: Math.floor(random() * 3),
        is_active: true,
        is_premium: paid && random() < 0.5,
        is_sponsored: paid,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
        invite_status: 'ok',
        last_checked_at: null,
        last_ok_at: null,
        rank_score: random(),
        growth_30d: 0,
        language: null,
        region: null,
      };
    });
  }
  /** A card for every key: what a full read would give (only the id matters to cardsOf). */
  const everyCard = (servers: ListingKey[]) => new Map(servers.map((s) => [s.id, s as unknown as ListingRow]));

  it.each([
    ['few paid listings', 30_000, 0.05, 7, true],
    // Short listings: every page of them is written, so every server is named.
    ['many paid listings, some ending their lists', 1_500, 0.4, 11, false],
  ])('names every card the written pages show (%s)', (_, n, paidShare, seed, deep) => {
    const servers = listing(n, paidShare, seed);
    const all = everyCard(servers);
    const named = cardIds(servers);
    // Only the named cards: a page needing another one throws.
    const cards = new Map([...named].map((id) => [id, all.get(id)!]));
    const pages = toolEnv().PRERENDER_LISTING_PAGES;
    // A category's list is led by its Sponsored cards (placesAtHead), as its pages place it.
    const lists: [ListingKey[], boolean][] = [
      [servers, false],
      ...CATEGORIES.map((c): [ListingKey[], boolean] => [serversInCategory(servers, c.name), true]),
    ];
    for (const [list, head] of lists) {
      const last = listingPageFromList(list, 1, all, head).last;
      for (let page = 1; page <= Math.min(pages, last); page++) {
        const page1 = listingPageFromList(list, page, cards, head);
        expect(page1).toEqual(listingPageFromList(list, page, all, head));
      }
    }
    // Subcategory listings page like categories: their prerendered numbered pages have their cards too.
    for (const sub of SUBCATEGORIES) {
      const list = serversInSubcategory(servers, sub.parentCategory, sub.key);
      const last = listingPageFromList(list, 1, all, true).last;
      for (let page = 1; page <= Math.min(pages, last); page++) {
        expect(listingPageFromList(list, page, cards, true)).toEqual(listingPageFromList(list, page, all, true));
      }
      expect(() => cardsOf(cards, list.slice(0, LIMITS.structuredData))).not.toThrow();
    }
    expect(() => cardsOf(cards, placeListing(servers).slice(0, LIMITS.homeList))).not.toThrow();
    expect(() => cardsOf(cards, premiumPicks(servers, LIMITS.premiumGrid))).not.toThrow();
    expect(() => cardsOf(cards, servers.slice(0, LIMITS.structuredData))).not.toThrow();
    // Where listings run past the written pages, far fewer than every server: what the build no longer reads whole.
    // Each listing (all, each category, each subcategory) names at most its written pages' cards and a few more.
    if (deep) {
      expect(named.size).toBeLessThan(n / 2);
      expect(named.size).toBeLessThanOrEqual(
        (1 + CATEGORIES.length + SUBCATEGORIES.length) * (pages * LIMITS.categoryPageSize + 20),
      );
    } else expect(named.size).toBe(n);
  });

  it('makes a page fail loudly when a card it shows was not read', () => {
    const servers = listing(100, 0, 3);
    expect(() => listingPageFromList(servers, 1, new Map())).toThrow(/No card was read for server/);
  });
});
