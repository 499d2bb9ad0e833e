import { describe, expect, it } from 'vitest';
import { isoWeek } from './week';

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
