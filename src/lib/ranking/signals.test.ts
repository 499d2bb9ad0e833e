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

  it('does not name an unscored listing whose place moved: its page prints no place', () => {
    // A new scored listing (5) goes first: the scored ones below it move and print it, the
    // unscored ones (scores 0, ordered by members) move too but print "not ranked yet".
    const listings = [listing(1, 3), listing(2, 0), listing(3, 0), listing(5, 0)];
    expect(shownChanges(listings, new Map([[5, { score: 4, growth: 0 }]]), new Set([5])).sort()).toEqual(['s1', 's5']);
  });

  it('names every scored listing whose place moved, and no unscored one (any scores)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(0, 1, 2, 3), { minLength: 1, maxLength: 20 }),
        fc.nat(),
        fc.constantFrom(0, 1.5, 2.5, 4),
        (scores, pick, next) => {
          const listings = scores.map((s, i) => ({ ...listing(i + 1, s), members: 1_000 + ((i * 7) % 5) }));
          const moved = listings[pick % listings.length]!;
          const named = new Set(shownChanges(listings, new Map([[moved.id, { score: next, growth: 0 }]]), new Set()));
          const order = (score: (l: ScoredListing) => number) =>
            listings.toSorted((a, b) => score(b) - score(a) || b.members - a.members || a.id - b.id).map((l) => l.id);
          const before = order((l) => l.score);
          const after = order((l) => (l.id === moved.id ? next : l.score));
          for (const l of listings) {
            const score = l.id === moved.id ? next : l.score;
            const shownBefore = l.score > 0 ? before.indexOf(l.id) : -1;
            const shownAfter = score > 0 ? after.indexOf(l.id) : -1;
            expect(named.has(l.slug)).toBe(shownBefore !== shownAfter);
          }
        },
      ),
    );
  });
});
