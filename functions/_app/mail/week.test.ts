import { describe, expect, it } from 'vitest';
import { isoWeek, nextWeeklySend } from './week';

describe('isoWeek', () => {
  it('names the ISO week, Monday to Sunday, in the year of its Thursday', () => {
    expect(isoWeek(Date.parse('2026-11-23T00:00:00Z'))).toBe('2026-W48'); // a Monday
    expect(isoWeek(Date.parse('2026-11-29T23:59:59Z'))).toBe('2026-W48'); // its Sunday
    expect(isoWeek(Date.parse('2026-11-30T00:00:00Z'))).toBe('2026-W49');
    expect(isoWeek(Date.parse('2021-01-03T12:00:00Z'))).toBe('2020-W53');
    expect(isoWeek(Date.parse('2024-12-30T12:00:00Z'))).toBe('2025-W01');
    expect(isoWeek(Date.parse('2026-01-01T00:00:00Z'))).toBe('2026-W01');
  });
});

describe('nextWeeklySend', () => {
  it('is the next Monday 09:00 UTC, strictly after the time given', () => {
    expect(new Date(nextWeeklySend(Date.parse('2026-11-23T08:59:00Z'))).toISOString()).toBe('2026-11-23T09:00:00.000Z');
    expect(new Date(nextWeeklySend(Date.parse('2026-11-23T09:00:00Z'))).toISOString()).toBe('2026-11-30T09:00:00.000Z');
    expect(new Date(nextWeeklySend(Date.parse('2026-11-29T23:00:00Z'))).toISOString()).toBe('2026-11-30T09:00:00.000Z');
  });
});
