import { describe, expect, it } from 'vitest';
import { headFirst, placePaid } from '../lib/placement';
import { pageParam, paidPositions } from './listing-page';

/** A small deterministic generator (mulberry32), so a failure names its seed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('paidPositions', () => {
  it('places every paid item where placePaid does (the trailing ones too), on random lists', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const next = random(seed);
      const length = Math.floor(next() * 80);
      // From no paid item to nearly all of them: spaced, crowded and trailing ones all occur.
      const density = next();
      const items = Array.from({ length }, (_, id) => ({ id, paid: next() < density }));
      const organic = items.flatMap((item, i) => (item.paid ? [i] : []));
      const { placed } = placePaid(items, (item) => item.paid);
      expect(placed.length, `seed ${seed}`).toBe(length);
      const expected = items.filter((item) => item.paid).map((item) => placed.indexOf(item));
      expect(paidPositions(length, organic), `seed ${seed}`).toEqual(expected);
    }
  });

  it("places every paid item where placePaid does when a category's Sponsored items lead the list (headFirst)", () => {
    for (let seed = 1; seed <= 400; seed++) {
      const next = random(seed);
      const length = Math.floor(next() * 80);
      const density = next();
      const items = Array.from({ length }, (_, id) => {
        const paid = next() < density;
        return { id, paid, head: paid && next() < 0.3 };
      });
      const paid = items.filter((item) => item.paid);
      const { placed } = placePaid(
        headFirst(items, (item) => item.head),
        (item) => item.paid,
      );
      const got = paidPositions(
        length,
        paid.map((item) => item.id),
        paid.length,
        paid.map((item) => item.head),
      );
      expect(got, `seed ${seed}`).toEqual(paid.map((item) => placed.indexOf(item)));
    }
  });
});

describe('pageParam', () => {
  it('reads a plain decimal page number from 2 up, and nothing else', () => {
    expect(pageParam('2')).toBe(2);
    expect(pageParam('4170')).toBe(4170);
    for (const bad of [undefined, '', '1', '0', '02', '-3', '2.0', '2/3', 'abc', '1e3', '12345678901']) {
      expect(pageParam(bad), String(bad)).toBeNull();
    }
  });
});
