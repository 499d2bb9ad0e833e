import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { median, type ScoredListing, shownChanges } from './signals';

const listing = (id: number, score: number, category = 'Gaming'): ScoredListing => ({
  id,
  slug: `s${id}`,
  category,
  is_active: true,
  status: 'ok',
  members: 1_000,
  sort_order: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  score,
  growth: 0,
});

describe('median', () => {
  it('lies between the smallest and the largest value, and is the middle one of an odd count', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1 }), (values) => {
        const m = median([...values]);
        expect(m).toBeGreaterThanOrEqual(Math.min(...values));
        expect(m).toBeLessThanOrEqual(Math.max(...values));
        if (values.length % 2) expect(values).toContain(m);
      }),
    );
  });
});

describe('shownChanges', () => {
  it('names nothing when no score moved, whatever the scores', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 10, noNaN: true }), { maxLength: 30 }), (scores) => {
        const listings = scores.map((s, i) => listing(i + 1, s));
        expect(shownChanges(listings, new Map(), new Set())).toEqual([]);
      }),
    );
  });

  it('names a rewritten listing and those whose place it took, not another category', () => {
    const listings = [listing(1, 3), listing(2, 2), listing(3, 1), listing(4, 5, 'Crypto')];
    expect(shownChanges(listings, new Map([[3, { score: 2.5, growth: 0 }]]), new Set([3])).sort()).toEqual([
      's2',
      's3',
    ]);
  });
});
