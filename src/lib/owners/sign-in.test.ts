import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { discordBusyMessage } from './sign-in';

describe('discordBusyMessage', () => {
  it('says Discord is busy and the UTC time and wait until the breaker closes', () => {
    const now = Date.parse('2026-11-27T01:00:00Z');
    expect(discordBusyMessage(now + 5 * 60_000, now)).toBe(
      'Discord is busy: it asked us to slow down, so we cannot check your membership right now. Please try again after 01:05 UTC (in about 5\u00a0minutes).',
    );
    expect(discordBusyMessage(now + 30_000, now)).toContain('after 01:00 UTC (in about 1\u00a0minute).');
    expect(discordBusyMessage(now + 6 * 3_600_000, now)).toContain('after 07:00 UTC (in about 6\u00a0hours).');
    expect(discordBusyMessage(now + 24 * 3_600_000, now)).toContain(
      'after 01:00 UTC on 2026-11-28 (in about 24\u00a0hours).',
    );
  });

  it('never tells anyone to try again before the time it names, nor names a wait under a minute', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2_000_000_000_000 }),
        fc.integer({ min: 1, max: 86_400_000 }),
        (now, wait) => {
          const text = discordBusyMessage(now + wait, now);
          const [, hh, mm] = /after (\d\d):(\d\d) UTC/.exec(text)!;
          const named = new Date(now + wait);
          expect(Number(hh)).toBe(named.getUTCHours());
          expect(Number(mm)).toBe(named.getUTCMinutes());
          expect(text).toMatch(/\(in about [1-9]\d*\u00a0(minutes?|hours?)\)\.$/);
        },
      ),
    );
  });
});
