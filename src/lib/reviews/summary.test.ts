import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { averageLine, holdsForBurst, memberSince, REVIEWS_SHOWN_MIN, summarise } from './summary';

describe('summarise', () => {
  it('counts each star, and the average lies between the lowest and highest rating', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 200 }), (ratings) => {
        const s = summarise(ratings);
        expect(s.count).toBe(ratings.length);
        expect(s.distribution.reduce((a, b) => a + b, 0)).toBe(ratings.length);
        if (ratings.length) {
          expect(s.average).toBeGreaterThanOrEqual(Math.min(...ratings) - 0.05);
          expect(s.average).toBeLessThanOrEqual(Math.max(...ratings) + 0.05);
        } else expect(s.average).toBe(0);
      }),
    );
  });
  it('never shows more than the true mean, nor 5.0 unless every rating is 5 (4.96 shows 4.9)', () => {
    expect(summarise([...Array<number>(24).fill(5), 4]).average).toBe(4.9);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 200 }), (ratings) => {
        const mean = ratings.reduce((a, b) => a + b, 0) / ratings.length;
        const { average } = summarise(ratings);
        expect(average).toBeLessThanOrEqual(mean);
        expect(average).toBeGreaterThan(mean - 0.1);
        expect(average * 10).toBe(Math.round(average * 10));
        if (average === 5) expect(ratings.every((r) => r === 5)).toBe(true);
      }),
    );
  });
  it('says "4.3 from 12 verified members", and nothing below three reviews', () => {
    expect(averageLine({ count: 12, average: 4.3 })).toBe('4.3 from 12 verified members');
    expect(averageLine({ count: REVIEWS_SHOWN_MIN - 1, average: 5 })).toBeNull();
    expect(averageLine(summarise([5, 4, 4]))).toBe('4.3 from 3 verified members');
  });
});

describe('holdsForBurst', () => {
  it('holds the sixth new review of a listing in 24 hours when the limit is 5, not the fifth', () => {
    expect(holdsForBurst(4, 5)).toBe(false);
    expect(holdsForBurst(5, 5)).toBe(true);
  });
  it('holds exactly the reviews past the limit', () => {
    fc.assert(
      fc.property(fc.nat(100), fc.integer({ min: 1, max: 50 }), (recent, limit) => {
        expect(holdsForBurst(recent, limit)).toBe(recent >= limit);
      }),
    );
  });
});

describe('memberSince', () => {
  it('gives the month and year of joined_at in UTC', () => {
    expect(memberSince('2025-03-31T23:30:00.000+00:00')).toBe('March 2025');
    expect(memberSince('nonsense')).toBe('');
  });

  it('says what toLocaleDateString says for any moment (the formatter is built once)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (t) => {
        const iso = new Date(t).toISOString();
        expect(memberSince(iso)).toBe(
          new Date(t).toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
        );
      }),
    );
  });
});
