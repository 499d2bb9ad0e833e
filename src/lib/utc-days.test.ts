import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lastUtcDays, utcDaysSince } from './utc-days';

const DAY = 86_400_000;
/** Any instant from 2000 to 2100, and a window of 1 to 90 days. */
const instants = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) });
const spans = fc.integer({ min: 1, max: 90 });

describe('the dashboard’s window of UTC calendar days', () => {
  it('is `days` consecutive dates ending today, starting at utcDaysSince', () => {
    fc.assert(
      fc.property(instants, spans, (now, days) => {
        const dates = lastUtcDays(days, now);
        expect(dates).toHaveLength(days);
        expect(dates.at(-1)).toBe(new Date(now).toISOString().slice(0, 10));
        expect(dates[0]).toBe(utcDaysSince(days, now));
        for (let i = 1; i < dates.length; i++) expect(Date.parse(dates[i]!) - Date.parse(dates[i - 1]!)).toBe(DAY);
      }),
    );
  });

  it('holds exactly the instants from 00:00 UTC of its first day: one is in it when its time is at or after the first date', () => {
    fc.assert(
      fc.property(instants, spans, fc.integer({ min: -10 * DAY, max: 0 }), (now, days, back) => {
        const at = new Date(now + back - (days - 1) * DAY).toISOString();
        const inWindow = lastUtcDays(days, now).includes(at.slice(0, 10));
        expect(at >= utcDaysSince(days, now)).toBe(inWindow);
      }),
    );
  });

  it('starts a 7-day window at midnight six days back, not 7 × 24 hours back', () => {
    const now = Date.UTC(2026, 10, 28, 12, 0);
    expect(lastUtcDays(7, now)).toEqual([
      '2026-11-22',
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
    ]);
    expect(utcDaysSince(7, now)).toBe('2026-11-22');
  });
});
