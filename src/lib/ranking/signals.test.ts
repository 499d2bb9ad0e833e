import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INVITE_STATUSES } from '../enums';
import { isListed } from '../listing';
import {
  categoryPlaces,
  median,
  nicheShares,
  nicheSharesInSteps,
  type ScoredListing,
  shownChanges,
  storedPlaces,
  storedPlacesInSteps,
} from './signals';

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
  place: null,
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

/** Random listings: few distinct scores and member counts (ties), every invite state, a category the site lists or not. */
const listings = fc
  .array(
    fc.record({
      category: fc.constantFrom('Gaming', 'Crypto', 'Trading', 'Knitting'),
      is_active: fc.boolean(),
      status: fc.constantFrom(...INVITE_STATUSES),
      members: fc.integer({ min: 0, max: 4 }),
      score: fc.constantFrom(0, 0.5, 1, 2.25),
    }),
    { maxLength: 60 },
  )
  .map((rows) =>
    // Ids in a shuffled order, so the id tie-break is not the array's.
    rows.map((r, i): ScoredListing => ({ ...listing(((i * 37) % 61) + 1, r.score, r.category), ...r })),
  );

describe('categoryPlaces', () => {
  it('places each listed listing at 1 + the listed listings of its category ahead of it (score, members, then id), the unlisted nowhere', () => {
    fc.assert(
      fc.property(listings, fc.array(fc.constantFrom(0, 1, 3), { maxLength: 60 }), (rows, newScores) => {
        // Some listings get a new score from the recompute; the rest keep their own.
        const after = new Map(
          rows.flatMap((l, i) => (i < newScores.length ? [[l.id, { score: newScores[i]!, growth: 0 }]] : [])),
        );
        const scoreOf = (l: ScoredListing) => after.get(l.id)?.score ?? l.score;
        const listed = rows.filter((l) => isListed({ ...l, invite_status: l.status }));
        const places = categoryPlaces(rows, after);
        for (const l of rows) {
          if (!listed.includes(l)) {
            expect(places.has(l.id)).toBe(false);
            continue;
          }
          const ahead = listed.filter(
            (o) =>
              o.category === l.category &&
              (scoreOf(o) > scoreOf(l) ||
                (scoreOf(o) === scoreOf(l) && (o.members > l.members || (o.members === l.members && o.id < l.id)))),
          ).length;
          expect(places.get(l.id)).toBe(ahead + 1);
        }
      }),
    );
  });
});

describe('shownChanges', () => {
  it('names the rewritten listings that have a page, and no other', () => {
    fc.assert(
      fc.property(listings, fc.array(fc.boolean(), { maxLength: 60 }), (rows, picks) => {
        const rewritten = new Set(rows.filter((_, i) => picks[i]).map((l) => l.id));
        const named = new Set(shownChanges(rows, rewritten));
        for (const l of rows) {
          const page = l.is_active && l.category !== 'Knitting' && l.status !== 'wrong_guild';
          expect(named.has(l.slug)).toBe(rewritten.has(l.id) && page);
        }
      }),
    );
  });
});

describe('storedPlaces', () => {
  /** The slugs whose stored place a recompute with `after` changes: the pages it names for their place. */
  const moved = (listings: ScoredListing[], after: Map<number, { score: number; growth: number }>) => {
    const before = storedPlaces(listings, new Map());
    const now = storedPlaces(listings, after);
    return listings.filter((l) => before.get(l.id) !== now.get(l.id)).map((l) => l.slug);
  };

  it('changes no unscored listing whose place moved: its page prints no place', () => {
    // A new scored listing (5) goes first: the scored ones below it move and print it, the
    // unscored ones (scores 0, ordered by members) move too but print "not ranked yet".
    const listings = [listing(1, 3), listing(2, 0), listing(3, 0), listing(5, 0)];
    expect(moved(listings, new Map([[5, { score: 4, growth: 0 }]])).sort()).toEqual(['s1', 's5']);
  });

  it('changes every scored listing whose place moved, and no unscored one (any scores)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(0, 1, 2, 3), { minLength: 1, maxLength: 20 }),
        fc.nat(),
        fc.constantFrom(0, 1.5, 2.5, 4),
        (scores, pick, next) => {
          const listings = scores.map((s, i) => ({ ...listing(i + 1, s), members: 1_000 + ((i * 7) % 5) }));
          const change = listings[pick % listings.length]!;
          const named = new Set(moved(listings, new Map([[change.id, { score: next, growth: 0 }]])));
          const order = (score: (l: ScoredListing) => number) =>
            listings.toSorted((a, b) => score(b) - score(a) || b.members - a.members || a.id - b.id).map((l) => l.id);
          const before = order((l) => l.score);
          const after = order((l) => (l.id === change.id ? next : l.score));
          for (const l of listings) {
            const score = l.id === change.id ? next : l.score;
            const shownBefore = l.score > 0 ? before.indexOf(l.id) : -1;
            const shownAfter = score > 0 ? after.indexOf(l.id) : -1;
            expect(named.has(l.slug)).toBe(shownBefore !== shownAfter);
          }
        },
      ),
    );
  });
});

describe('storedPlacesInSteps', () => {
  it('stores the places storedPlaces stores, and no other (random listings and new scores)', async () => {
    await fc.assert(
      fc.asyncProperty(listings, fc.array(fc.constantFrom(0, 1, 3), { maxLength: 60 }), async (rows, newScores) => {
        const after = new Map(
          rows.flatMap((l, i) => (i < newScores.length ? [[l.id, { score: newScores[i]!, growth: 0 }]] : [])),
        );
        const byId = (m: Map<number, number>) => [...m].sort(([a], [b]) => a - b);
        expect(byId(await storedPlacesInSteps(rows, after))).toEqual(byId(storedPlaces(rows, after)));
      }),
    );
  });
});

describe('nicheSharesInSteps', () => {
  it('gives the medians nicheShares gives (random listings and online counts)', async () => {
    await fc.assert(
      fc.asyncProperty(listings, fc.array(fc.nat({ max: 5 }), { maxLength: 60 }), async (rows, online) => {
        const withOnline = rows.map((l, i) => ({ ...l, online: online[i] ?? 0 }));
        expect([...(await nicheSharesInSteps(withOnline))]).toEqual([...nicheShares(withOnline)]);
      }),
    );
  });
});
