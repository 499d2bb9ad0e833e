import { describe, expect, it } from 'vitest';
import { BUDGET, budgetAt, capacityLine, listingsPerDay, refreshCycleDays } from './budget';

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
});
