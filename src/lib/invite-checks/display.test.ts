import { describe, expect, it } from 'vitest';
import { sparkline, timeAgo } from './display';

const now = new Date('2026-11-23T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const H = 3_600_000;
const D = 24 * H;

describe('timeAgo', () => {
  it('says just now under a minute, and for a check stamped a little ahead of the clock', () => {
    expect(timeAgo(ago(30_000), now)).toBe('just now');
    expect(timeAgo(ago(-5_000), now)).toBe('just now');
  });
  it('names the largest whole unit', () => {
    expect(timeAgo(ago(5 * 60_000), now)).toBe('5 minutes ago');
    expect(timeAgo(ago(H), now)).toBe('1 hour ago');
    expect(timeAgo(ago(3 * H + 59 * 60_000), now)).toBe('3 hours ago');
    expect(timeAgo(ago(3 * D), now)).toBe('3 days ago');
    expect(timeAgo(ago(400 * D), now)).toBe('1 year ago');
  });
  it('says just now for a time it cannot read', () => {
    expect(timeAgo('not a date', now)).toBe('just now');
  });
});

describe('sparkline', () => {
  const opts = { width: 104, height: 48, days: 30, now, pad: 2 };

  it('draws nothing without points', () => {
    expect(sparkline([], opts)).toBeNull();
  });

  it('spans the window on x and the history range on y, highest members at the top', () => {
    const line = sparkline(
      [
        { checked_at: ago(30 * D), members: 100 },
        { checked_at: ago(15 * D), members: 150 },
        { checked_at: ago(0), members: 200 },
      ],
      { ...opts, gapDays: 20 },
    );
    expect(line).toEqual({ path: 'M2 46 L52 24 L102 2', dots: [], min: 100, max: 200 });
  });

  it('draws a flat history across the middle', () => {
    const line = sparkline(
      [
        { checked_at: ago(2 * D), members: 7 },
        { checked_at: ago(D), members: 7 },
      ],
      opts,
    );
    expect(line?.path).toMatch(/^M[\d.]+ 24 L[\d.]+ 24$/);
  });

  it('breaks the line where checks are missing for longer than the gap, and dots a lone point', () => {
    const line = sparkline(
      [
        { checked_at: ago(20 * D), members: 10 },
        { checked_at: ago(19 * D), members: 20 },
        { checked_at: ago(10 * D), members: 30 },
        { checked_at: ago(2 * D), members: 40 },
        { checked_at: ago(D), members: 50 },
      ],
      opts,
    );
    expect(line?.path.match(/M/g)).toHaveLength(2);
    expect(line?.dots).toHaveLength(1);
    expect(line?.dots[0]?.x).toBeCloseTo(2 + (20 / 30) * 100, 0);
  });
});
