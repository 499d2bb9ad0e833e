import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  headFirst,
  isHeadPlacement,
  listingPlacement,
  MAX_PLACED_POSITIONS,
  organicRanks,
  PAID_SPACING,
  placedPage,
  placePaid,
  placesAtHead,
  readHeadFirst,
} from './placement';

interface Item {
  id: number;
  paid: boolean;
}
const isPaid = (i: Item) => i.paid;
/** Lists in organic order: ids are the organic positions. */
const lists = fc.array(fc.boolean(), { maxLength: 80 }).map((flags) => flags.map((paid, id): Item => ({ id, paid })));

/** Whether every window of PAID_SPACING consecutive items holds at most one paid one. */
const spaced = (items: readonly Item[]) =>
  items.every((_, i) => items.slice(i, i + PAID_SPACING).filter(isPaid).length <= 1);

/** Where the trailing run of paid items starts (the list's length when it ends on an unpaid one). */
const trailingPaidFrom = (items: readonly Item[]) => {
  let i = items.length;
  while (i > 0 && items[i - 1]!.paid) i--;
  return i;
};

/** Random mixes of paid and free listings, from none paid to all paid. */
const mixes = fc
  .tuple(
    fc.double({ min: 0, max: 1, noNaN: true }),
    fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 120 }),
  )
  .map(([density, draws]) => draws.map((d, id): Item => ({ id, paid: d < density })));

describe('placePaid', () => {
  it('places every listed server exactly once: nothing is hidden, and the count is the list count', () => {
    fc.assert(
      fc.property(fc.oneof(lists, mixes), (items) => {
        const { placed, settled } = placePaid(items, isPaid);
        expect(placed.length).toBe(items.length);
        expect(settled).toBe(items.length);
        expect(new Set(placed.map((i) => i.id)).size).toBe(items.length);
        expect([...placed].sort((a, b) => a.id - b.id)).toEqual(items);
      }),
    );
  });

  it('never puts two paid cards within five positions, except among the trailing paid cards nothing could space', () => {
    // The exact rule: for paid cards at positions i < j with j - i < PAID_SPACING, every card from
    // j to the end of the list is paid. So every window of five positions that holds two paid
    // cards ends in the list's trailing run of paid cards, and the list before that run is spaced.
    fc.assert(
      fc.property(fc.oneof(lists, mixes), (items) => {
        const { placed } = placePaid(items, isPaid);
        const tail = trailingPaidFrom(placed);
        placed.forEach((a, i) => {
          if (!a.paid) return;
          for (let j = i + 1; j < Math.min(placed.length, i + PAID_SPACING); j++) {
            if (placed[j]!.paid) expect(j).toBeGreaterThanOrEqual(tail);
          }
        });
        expect(spaced(placed.slice(0, tail))).toBe(true);
        // A trailing run only where no unpaid server was left: none stands after the first crowded one.
        if (!spaced(placed)) expect(placed.slice(tail).every(isPaid)).toBe(true);
      }),
    );
  });

  it('spaces every paid card out when there are enough free listings for them', () => {
    fc.assert(
      fc.property(fc.oneof(lists, mixes), (items) => {
        const paid = items.filter(isPaid).length;
        // Each paid card but the last needs four free cards after it (and the first may lead).
        fc.pre(items.length - paid >= (PAID_SPACING - 1) * Math.max(0, paid - 1) + items.findIndex(isPaid));
        expect(spaced(placePaid(items, isPaid).placed)).toBe(true);
      }),
    );
  });

  it('keeps every organic card, in order, and never moves one down', () => {
    fc.assert(
      fc.property(lists, (items) => {
        const { placed } = placePaid(items, isPaid);
        const organic = placed.filter((i) => !i.paid);
        expect(organic).toEqual(items.filter((i) => !i.paid));
        placed.forEach((item, position) => {
          if (!item.paid) expect(position).toBeLessThanOrEqual(item.id);
        });
      }),
    );
  });

  it('never moves a paid card up and keeps paid cards in their order', () => {
    fc.assert(
      fc.property(lists, (items) => {
        const { placed } = placePaid(items, isPaid);
        placed.forEach((item, position) => {
          if (item.paid) expect(position).toBeGreaterThanOrEqual(item.id);
        });
        expect(placed.filter(isPaid)).toEqual(items.filter(isPaid));
      }),
    );
  });

  it('leaves a list that already keeps the rule as it is', () => {
    fc.assert(
      fc.property(lists, (items) => {
        fc.pre(spaced(items));
        expect(placePaid(items, isPaid).placed).toEqual(items);
      }),
    );
  });

  it('settles the start of a list from a prefix exactly as from the whole list', () => {
    fc.assert(
      fc.property(lists, fc.nat(80), (items, cut) => {
        const whole = placePaid(items, isPaid).placed;
        const { placed, settled } = placePaid(items.slice(0, cut), isPaid, { complete: cut >= items.length });
        expect(placed.slice(0, settled)).toEqual(whole.slice(0, settled));
      }),
    );
  });

  it('places four paid cards among six servers with the organic ones between, and the rest at the end', () => {
    const items = [true, true, true, true, false, false].map((paid, id) => ({ id, paid }));
    expect(placePaid(items, isPaid).placed.map((i) => i.id)).toEqual([0, 4, 5, 1, 2, 3]);
  });

  it('places the sample data (three paid among six) so that every server has a card', () => {
    // The sample set: the three paid listings have the most members, three free ones follow.
    const items = [true, true, true, false, false, false].map((paid, id) => ({ id, paid }));
    expect(placePaid(items, isPaid).placed.map((i) => i.id)).toEqual([0, 3, 4, 5, 1, 2]);
  });
});

describe('organicRanks', () => {
  it('numbers the organic cards 1, 2, 3… and skips the paid ones', () => {
    const placed = [true, false, false, false, false, true, false].map((paid, id) => ({ id, paid }));
    expect(organicRanks(placed, isPaid)).toEqual([null, 1, 2, 3, 4, null, 5]);
    expect(organicRanks(placed, isPaid, 10)).toEqual([null, 10, 11, 12, 13, null, 14]);
  });
});

describe('placedPage', () => {
  it('answers each page of the placed list, reading only prefixes, with the placed total at the end', async () => {
    await fc.assert(
      fc.asyncProperty(lists, fc.integer({ min: 1, max: 12 }), async (items, perPage) => {
        const whole = placePaid(items, isPaid).placed;
        const read = (n: number) => ({ servers: items.slice(0, n), total: items.length });
        const pages = Math.max(1, Math.ceil(items.length / perPage));
        for (let page = 1; page <= pages; page++) {
          const got = await placedPage(read, isPaid, page, perPage);
          expect(got.servers).toEqual(whole.slice((page - 1) * perPage, page * perPage));
          if (page * perPage * 2 >= items.length) expect(got.total).toBe(whole.length);
        }
      }),
    );
  });

  it('answers no servers for a page past MAX_PLACED_POSITIONS, reading one row for the count', async () => {
    const reads: number[] = [];
    const read = (n: number) => {
      reads.push(n);
      return { servers: Array.from({ length: Math.min(n, 3) }, (_, id) => ({ id, paid: false })), total: 20_000 };
    };
    expect(await placedPage(read, isPaid, MAX_PLACED_POSITIONS / 10 + 1, 10)).toEqual({ servers: [], total: 20_000 });
    expect(reads).toEqual([1]);
  });
});

/** A category's list: paid listings, some of them Sponsored (the head-of-category plan), in organic order. */
interface Listing {
  id: number;
  is_premium: boolean;
  is_sponsored: boolean;
}
const categoryLists = fc
  .tuple(
    fc.double({ min: 0, max: 1, noNaN: true }),
    fc.double({ min: 0, max: 1, noNaN: true }),
    fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean()), { maxLength: 120 }),
  )
  .map(([density, sponsoredShare, draws]) =>
    draws.map(([d, premium], id): Listing => {
      const paid = d < density;
      const sponsored = paid && d < density * sponsoredShare;
      return { id, is_premium: paid && (!sponsored || premium), is_sponsored: sponsored };
    }),
  );
const isPaidListing = (s: Listing) => s.is_premium || s.is_sponsored;

describe('the head of a category (the Sponsored plans)', () => {
  it('places every listing exactly once, paid cards at most one in five but for the trailing ones nothing could space', () => {
    fc.assert(
      fc.property(categoryLists, (items) => {
        const { placed } = listingPlacement(items, true);
        expect([...placed].sort((a, b) => a.id - b.id)).toEqual(items);
        let tail = placed.length;
        while (tail > 0 && isPaidListing(placed[tail - 1]!)) tail--;
        placed.forEach((a, i) => {
          if (!isPaidListing(a)) return;
          for (let j = i + 1; j < Math.min(placed.length, i + PAID_SPACING); j++) {
            if (isPaidListing(placed[j]!)) expect(j).toBeGreaterThanOrEqual(tail);
          }
        });
      }),
    );
  });

  it('puts the first Sponsored listing at the head and each next one five positions later, ahead of every Premium one', () => {
    fc.assert(
      fc.property(categoryLists, (items) => {
        const { placed } = listingPlacement(items, true);
        const heads = items.filter(isHeadPlacement);
        const unpaid = items.filter((s) => !isPaidListing(s)).length;
        heads.forEach((s, k) => {
          // Enough other listings to space them: the k-th stands at k * PAID_SPACING exactly.
          if (unpaid >= k * (PAID_SPACING - 1)) expect(placed.indexOf(s)).toBe(k * PAID_SPACING);
        });
        // Sponsored listings in their own order, every one of them before any Premium one.
        const paid = placed.filter(isPaidListing);
        expect(paid.slice(0, heads.length)).toEqual(heads);
        if (heads.length > 0) expect(placed[0]).toBe(heads[0]);
      }),
    );
  });

  it('changes nothing but the Sponsored cards: unpaid cards keep their order and rank numbers', () => {
    fc.assert(
      fc.property(categoryLists, (items) => {
        const { placed, organicBefore } = listingPlacement(items, true);
        expect(placed.filter((s) => !isPaidListing(s))).toEqual(items.filter((s) => !isPaidListing(s)));
        expect(organicBefore(placed.length)).toBe(items.filter((s) => !isPaidListing(s)).length);
        // Without Sponsored listings a category's list is placed as any other list.
        const noHeads = items.map((s) => ({ ...s, is_sponsored: false, is_premium: isPaidListing(s) }));
        expect(listingPlacement(noHeads, true).placed).toEqual(listingPlacement(noHeads).placed);
      }),
    );
  });

  it("never moves a card up in a list that is not a category's", () => {
    fc.assert(
      fc.property(categoryLists, (items) => {
        listingPlacement(items).placed.forEach((s, position) => {
          if (isPaidListing(s)) expect(position).toBeGreaterThanOrEqual(s.id);
        });
      }),
    );
  });

  it('answers each page of a category read in prefixes as the whole list placed', async () => {
    await fc.assert(
      fc.asyncProperty(categoryLists, fc.integer({ min: 1, max: 12 }), async (items, perPage) => {
        const whole = placePaid(headFirst(items, isHeadPlacement), isPaidListing).placed;
        const read = readHeadFirst(
          (n: number) => ({ servers: items.slice(0, n), total: items.length }),
          items.filter(isHeadPlacement),
          (s) => s.id,
        );
        const pages = Math.max(1, Math.ceil(items.length / perPage));
        for (let page = 1; page <= pages; page++) {
          const got = await placedPage(read, isPaidListing, page, perPage);
          expect(got.servers).toEqual(whole.slice((page - 1) * perPage, page * perPage));
        }
      }),
    );
  });

  it("is a category's or subcategory's list without a search", () => {
    expect(placesAtHead({ category: 'Crypto' })).toBe(true);
    expect(placesAtHead({ category: 'Crypto', search: '  ' })).toBe(true);
    expect(placesAtHead({ category: 'Crypto', search: 'defi' })).toBe(false);
    expect(placesAtHead({ category: 'all' })).toBe(false);
    expect(placesAtHead({})).toBe(false);
  });
});
