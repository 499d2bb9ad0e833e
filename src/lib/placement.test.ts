import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PLACED_POSITIONS, organicRanks, PAID_SPACING, placedPage, placePaid } from './placement';

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

describe('placePaid', () => {
  it('never puts two paid cards within five positions', () => {
    fc.assert(fc.property(lists, (items) => spaced(placePaid(items, isPaid).placed)));
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

  it('never moves a paid card up, keeps paid cards in order, and leaves one out only when no organic card follows', () => {
    fc.assert(
      fc.property(lists, (items) => {
        const { placed, dropped } = placePaid(items, isPaid);
        placed.forEach((item, position) => {
          if (item.paid) expect(position).toBeGreaterThanOrEqual(item.id);
        });
        expect([...placed.filter(isPaid), ...dropped]).toEqual(items.filter(isPaid));
        expect(placed.length + dropped.length).toBe(items.length);
        // Something left out: the list ends on the organic cards running out.
        if (dropped.length > 0) {
          const lastOrganic = items.filter((i) => !i.paid).at(-1);
          if (lastOrganic) expect(placed.indexOf(lastOrganic)).toBeGreaterThan(placed.length - PAID_SPACING - 1);
        }
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

  it('places four paid cards among six servers with the organic ones between them', () => {
    const items = [true, true, true, true, false, false].map((paid, id) => ({ id, paid }));
    const { placed, dropped } = placePaid(items, isPaid);
    expect(placed.map((i) => i.id)).toEqual([0, 4, 5]);
    expect(dropped.map((i) => i.id)).toEqual([1, 2, 3]);
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
