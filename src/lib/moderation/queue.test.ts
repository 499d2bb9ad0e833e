import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { median, percentile, queueFigures, queueSentence } from './queue';

const H = 3_600_000;

describe('the queue figures', () => {
  it('median and p90 of fixed decision times, computed by hand', () => {
    // 1..10 hours: median (5 + 6) / 2 = 5.5 h; p90 = the 9th of 10 = 9 h.
    const hours = [7, 1, 10, 3, 5, 2, 9, 4, 8, 6].map((h) => h * H);
    expect(median(hours)).toBe(5.5 * H);
    expect(percentile(hours, 90)).toBe(9 * H);
    expect(queueFigures(hours, 4)).toEqual({ waiting: 4, decisions: 10, medianMs: 5.5 * H, p90Ms: 9 * H });
    // 11 decisions: median the 6th = 20 h; p90 the ceil(9.9) = 10th = 70 h.
    const eleven = [1, 2, 3, 10, 15, 20, 30, 40, 50, 70, 200].map((h) => h * H);
    expect(queueFigures(eleven, 0)).toEqual({ waiting: 0, decisions: 11, medianMs: 20 * H, p90Ms: 70 * H });
  });

  it('states a typical time only with at least 10 decisions', () => {
    const nine = queueFigures(Array(9).fill(3 * H), 2);
    expect(nine).toEqual({ waiting: 2, decisions: 9, medianMs: null, p90Ms: null });
    expect(queueSentence(nine)).toBe(
      '2 submissions are waiting for review. There is too little data for a typical review time: 9 decisions in the last 30 days (we state one from 10).',
    );
    const ten = queueFigures([...Array(9).fill(3 * H), 30 * H], 1);
    expect(queueSentence(ten)).toBe(
      '1 submission is waiting for review. Usually within 3\u00a0hours: over the last 30 days half of 10 decisions came within 3\u00a0hours, and 9 in 10 within 3\u00a0hours.',
    );
  });

  it('states decisions taken in minutes in minutes, rounded up, and long ones in days', () => {
    const quick = queueFigures([...Array(9).fill(12 * 60_000 + 5_000), 50 * 60_000], 0);
    expect(queueSentence(quick)).toBe(
      '0 submissions are waiting for review. Usually within 13\u00a0minutes: over the last 30 days half of 10 decisions came within 13\u00a0minutes, and 9 in 10 within 13\u00a0minutes.',
    );
    const slow = queueFigures([...Array(9).fill(5.5 * H), 80 * H], 0);
    expect(queueSentence(slow)).toContain('Usually within 6\u00a0hours');
    expect(queueSentence(queueFigures(Array(10).fill(80 * H), 0))).toContain('9 in 10 within 4\u00a0days.');
  });

  it('property: the median lies between the extremes and p90 is at least the median', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 1e9 }), { minLength: 1, maxLength: 50 }), (values) => {
        const m = median(values)!;
        expect(m).toBeGreaterThanOrEqual(Math.min(...values));
        expect(m).toBeLessThanOrEqual(Math.max(...values));
        expect(percentile(values, 90)!).toBeGreaterThanOrEqual(m);
        expect(values).toContain(percentile(values, 90));
      }),
    );
  });
});
