import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countFound, countOf, formatMembers, formatPercent, initials } from './format';

describe('formatMembers', () => {
  it('shows counts under 1,000 as they are', () => {
    expect(formatMembers(0)).toBe('0');
    expect(formatMembers(999)).toBe('999');
  });
  it('abbreviates thousands with K and always one decimal', () => {
    expect(formatMembers(1000)).toBe('1.0K');
    expect(formatMembers(1500)).toBe('1.5K');
    expect(formatMembers(184_300)).toBe('184.3K');
    expect(formatMembers(100_000)).toBe('100.0K');
  });
  it('never shows 1000.0K just under a million', () => {
    expect(formatMembers(999_949)).toBe('999.9K');
    expect(formatMembers(999_950)).toBe('999.9K');
    expect(formatMembers(999_999)).toBe('999.9K');
  });
  it('abbreviates millions with M and always one decimal', () => {
    expect(formatMembers(1_000_000)).toBe('1.0M');
    expect(formatMembers(1_250_000)).toBe('1.2M');
    expect(formatMembers(12_000_000)).toBe('12.0M');
  });
  it('treats bad input as zero', () => {
    expect(formatMembers(Number.NaN)).toBe('0');
    expect(formatMembers(-5)).toBe('0');
  });
});

describe('initials', () => {
  it('takes the first letters of the first two words', () => {
    expect(initials('Apex Legends Hub')).toBe('AL');
    expect(initials('solo')).toBe('S');
    expect(initials('  ')).toBe('?');
  });
});

describe('countOf', () => {
  it('says 1 server, never 1 servers, and groups thousands', () => {
    expect(countOf(1, 'server')).toBe('1 server');
    expect(countOf(0, 'server')).toBe('0 servers');
    expect(countOf(2, 'saved server')).toBe('2 saved servers');
    expect(countOf(1234, 'server')).toBe('1,234 servers');
    expect(countOf(3, 'category', 'categories')).toBe('3 categories');
  });
});

describe('countFound', () => {
  it('says an exact count as countOf does and a capped search count as "N+"', () => {
    expect(countFound(1, true, 'server')).toBe('1 server');
    expect(countFound(1000, false, 'server')).toBe('1,000+ servers');
    expect(countFound(0, true, 'server')).toBe('0 servers');
  });

  it('says "No servers" for a lower bound of none, never "0+"', () => {
    expect(countFound(0, false, 'server')).toBe('No servers');
  });
});

describe('formatPercent', () => {
  // Any space that lets a line break: everything \s matches but the no-break ones.
  const breakable = /[^\S\u00a0\u202f\u2007]/;

  it('writes a ratio as a percentage with a no-break space before the sign', () => {
    expect(formatPercent(0.25, { digits: 1 })).toBe('25.0\u00a0%');
    expect(formatPercent(0.219, { digits: 1 })).toBe('21.9\u00a0%');
    expect(formatPercent(0.2)).toBe('20\u00a0%');
    expect(formatPercent(0.15, { digits: 2, trim: true })).toBe('15\u00a0%');
    expect(formatPercent(0.1234, { digits: 2, trim: true })).toBe('12.34\u00a0%');
    expect(formatPercent(12.5)).toBe('1,250\u00a0%');
  });

  it('signs a change with + or a minus sign when asked', () => {
    expect(formatPercent(1.5, { signed: true })).toBe('+150\u00a0%');
    expect(formatPercent(-0.1, { signed: true, digits: 1, trim: true })).toBe('\u221210\u00a0%');
    expect(formatPercent(0, { signed: true })).toBe('+0\u00a0%');
  });

  it('never leaves a breakable space between the digits and the % sign', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.integer({ min: 0, max: 3 }),
        fc.boolean(),
        fc.boolean(),
        (ratio, digits, trim, signed) => {
          const text = formatPercent(ratio, { digits, trim, signed });
          expect(text).toMatch(/^[+\u2212]?\d[\d,]*(\.\d+)?\u00a0%$/);
          expect(text).not.toMatch(breakable);
        },
      ),
    );
  });
});
