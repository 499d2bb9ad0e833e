import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BUDGET,
  budgetAt,
  capacityLine,
  FREE_PLAN_SUBREQUESTS,
  listingsPerDay,
  maxLookupsPerPass,
  passSubrequests,
  refreshCycleDays,
  refreshPace,
  WORKER_LOOKUPS_PER_PASS,
} from './budget';

const T0 = Date.parse('2030-03-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe('refresh budget', () => {
  it('keeps 40 of the 200 lookups per 10 minutes for submissions', () => {
    expect(BUDGET.refreshPerWindow + BUDGET.submissionsPerWindow).toBe(BUDGET.totalPerWindow);
  });

  it('160 lookups per 10 minutes cover 23,040 listings a day: 10,000 fit', () => {
    expect(listingsPerDay(160)).toBe(23_040);
    expect(listingsPerDay(160)).toBeGreaterThanOrEqual(10_000);
    expect(capacityLine(160, 10_000)).toBe(
      'budget 160 per 10 min = 23,040 lookups a day: 10,000 listings checked daily',
    );
  });

  it('at a pace a day of minute passes under the window rule gives what the job can really check', () => {
    // No cap: every window fills in its first pass and the next opens 10 minutes on, the ideal figure.
    expect(listingsPerDay(160, { lookups: 10_000, lookupsWhenRanking: 10_000, rankEveryMinutes: 10 })).toBe(23_040);
    // The Worker's 8 a pass (4 when ranking): 160 in about 20 passes, then 10 minutes closed.
    const worker = listingsPerDay(160, refreshPace(WORKER_LOOKUPS_PER_PASS));
    expect(worker).toBeGreaterThan(7_000);
    expect(worker).toBeLessThan(8_000);
    // Never more than the passes' caps allow, nor than the windows allow.
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 40 }), (perWindow, lookups) => {
        const pace = { lookups, lookupsWhenRanking: Math.max(1, lookups >> 1), rankEveryMinutes: 10 };
        const perDay = listingsPerDay(perWindow, pace);
        return perDay <= lookups * 1440 && perDay <= listingsPerDay(perWindow) && perDay > 0;
      }),
    );
  });

  it('paces the Worker to the most lookups whose invocation stays within its plan’s subrequests', () => {
    expect(WORKER_LOOKUPS_PER_PASS).toBe(maxLookupsPerPass(FREE_PLAN_SUBREQUESTS));
    expect(WORKER_LOOKUPS_PER_PASS).toBe(8);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000 }), (subrequests) => {
        const most = maxLookupsPerPass(subrequests);
        if (most > 0) expect(passSubrequests(most)).toBeLessThanOrEqual(subrequests);
        // One more would pass the limit, or the setting's own ceiling (200, REFRESH_PER_10MIN's most).
        expect(most === 200 || passSubrequests(most + 1) > subrequests).toBe(true);
      }),
    );
  });

  it('beyond the budget, the slower lane says how many days a full round takes', () => {
    expect(refreshCycleDays(10_000, 160)).toBe(1);
    expect(refreshCycleDays(100_000, 160)).toBeCloseTo(4.34, 2);
    expect(capacityLine(160, 100_000)).toMatch(/100,000 listings checked every 4\.3 days/);
  });

  it('counts within a window, which closes 10 minutes after its last lookup', () => {
    const window = { lastLookupAt: iso(T0), count: 150 };
    expect(budgetAt(window, 160, T0 + 9 * 60_000)).toEqual({ opensNew: false, left: 10 });
    expect(budgetAt({ lastLookupAt: iso(T0), count: 170 }, 160, T0 + 60_000).left).toBe(0);
    expect(budgetAt(window, 160, T0 + BUDGET.windowMs - 1)).toEqual({ opensNew: false, left: 10 });
    expect(budgetAt(window, 160, T0 + BUDGET.windowMs)).toEqual({ opensNew: true, left: 160 });
    expect(budgetAt({ lastLookupAt: '', count: 0 }, 160, T0)).toEqual({ opensNew: true, left: 160 });
  });

  it('never lets more than the budget through in any 10 minutes, wherever they start', () => {
    // Lookups wanted at arbitrary moments (bursts, pauses, gaps around the window's length), each
    // made only when budgetAt leaves room, the window then updated as recordLookup writes it.
    const gap = fc.oneof(
      fc.integer({ min: 0, max: 1_000 }),
      fc.integer({ min: 0, max: 2 * BUDGET.windowMs }),
      fc.constantFrom(BUDGET.windowMs - 1, BUDGET.windowMs, BUDGET.windowMs + 1),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(gap, { maxLength: 300 }), (perWindow, gaps) => {
        let window = { lastLookupAt: '', count: 0 };
        let now = T0;
        const made: number[] = [];
        for (const step of gaps) {
          now += step;
          const { opensNew, left } = budgetAt(window, perWindow, now);
          if (left === 0) continue;
          made.push(now);
          window = { lastLookupAt: iso(now), count: opensNew ? 1 : window.count + 1 };
        }
        // Every span worth checking starts at a lookup: count the 10 minutes from each one.
        for (const [i, start] of made.entries()) {
          let inSpan = 0;
          for (let j = i; j < made.length && made[j]! < start + BUDGET.windowMs; j++) inSpan++;
          expect(inSpan).toBeLessThanOrEqual(perWindow);
        }
        // And the budget is spent, not hoarded: the first lookup always goes.
        if (gaps.length > 0) expect(made[0]).toBe(T0 + gaps[0]!);
      }),
      { numRuns: 500 },
    );
  });
});
