import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countFound, countOf, formatAge, formatDuration, formatMembers, formatPercent, initials } from './format';

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

describe('formatDuration', () => {
  const MIN = 60_000;
  const H = 3_600_000;
  const D = 86_400_000;
  const NB = '\u00a0';
  it.each([
    [0, 'nearest', 'under a minute'],
    [59_999, 'nearest', 'under a minute'],
    [2 * MIN, 'nearest', `2${NB}minutes`],
    [60_000, 'nearest', `1${NB}minute`],
    [12 * MIN + 20_000, 'nearest', `12${NB}minutes`],
    [59 * MIN + 40_000, 'nearest', `1${NB}hour`],
    [3 * H + 10 * MIN, 'nearest', `3${NB}hours`],
    [47 * H, 'nearest', `47${NB}hours`],
    [2 * D + 3 * H, 'nearest', `2${NB}days`],
    [1500 * D, 'nearest', `1,500${NB}days`],
    [0, 'up', `1${NB}minute`],
    [12 * MIN + 1, 'up', `13${NB}minutes`],
    [60 * MIN, 'up', `1${NB}hour`],
    [5.5 * H, 'up', `6${NB}hours`],
    [47.5 * H, 'up', `2${NB}days`],
    [59_999, 'down', 'under a minute'],
    [59 * MIN + 59_000, 'down', `59${NB}minutes`],
    [5 * H - 1, 'down', `4${NB}hours`],
    [3 * D + 4 * H, 'down', `3${NB}days`],
  ] as const)('%d ms (%s) reads "%s"', (ms, round, text) => {
    expect(formatDuration(ms, { round })).toBe(text);
  });

  // The amount a text states, in ms ("under a minute" as 0).
  const stated = (text: string) => {
    if (text === 'under a minute') return 0;
    const [, n, unit] = /^([\d,]+)\u00a0(minute|hour|day)s?$/.exec(text)!;
    return Number(n!.replaceAll(',', '')) * { minute: MIN, hour: H, day: D }[unit as 'minute' | 'hour' | 'day'];
  };
  const ms = fc.integer({ min: 0, max: 400 * D });

  it('states a whole number of one unit, singular for one, never zero, with a no-break space inside', () => {
    fc.assert(
      fc.property(ms, fc.constantFrom('nearest', 'up', 'down' as const), (t, round) => {
        const text = formatDuration(t, { round });
        expect(text).toMatch(/^(under a minute|[1-9][\d,]*\u00a0(minute|hour|day)s?)$/);
        if (text !== 'under a minute') expect(/^1\u00a0/.test(text)).toBe(!/s$/.test(text));
        expect(text).not.toContain(' hours');
      }),
    );
  });
  it('rounded up never states less than the duration, rounded down never more; to the nearest, it is off by at most half its unit', () => {
    fc.assert(
      fc.property(ms, (t) => {
        expect(stated(formatDuration(t, { round: 'up' }))).toBeGreaterThanOrEqual(t);
        expect(stated(formatDuration(t, { round: 'down' }))).toBeLessThanOrEqual(t);
        const near = formatDuration(t);
        const unit = near.includes('day') ? D : near.includes('hour') ? H : MIN;
        expect(Math.abs(stated(near) - t)).toBeLessThanOrEqual(unit / 2);
      }),
    );
  });
  it('never states a shorter time for a longer duration', () => {
    fc.assert(
      fc.property(ms, ms, fc.constantFrom('nearest', 'up', 'down' as const), (a, b, round) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(stated(formatDuration(lo, { round }))).toBeLessThanOrEqual(stated(formatDuration(hi, { round })));
      }),
    );
  });
});

describe('formatAge', () => {
  const at = Date.parse('2026-11-26T12:00:00.000Z');
  it('says how long ago a time was the way formatDuration does, rounded down, for the console queues', () => {
    expect(formatAge('2026-11-26T11:48:00Z', at)).toBe('12\u00a0minutes');
    expect(formatAge('2026-11-26T11:00:01Z', at)).toBe('59\u00a0minutes');
    expect(formatAge('2026-11-26T07:00:00Z', at)).toBe('5\u00a0hours');
    expect(formatAge('2026-11-23T08:00:00Z', at)).toBe('3\u00a0days');
  });
  it('reads a time ahead of the clock as under a minute and names an unreadable one', () => {
    expect(formatAge('2026-11-26T12:05:00Z', at)).toBe('under a minute');
    expect(formatAge('not a time', at)).toBe('unknown');
  });
});
