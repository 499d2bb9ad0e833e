import { describe, expect, it } from 'vitest';
import { detectAnomalies, type HistoryPoint } from './anomalies';

const NOW = new Date('2026-11-23T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();
const ok = (h: number, members: number, online: number): HistoryPoint => ({
  checked_at: hoursAgo(h),
  outcome: 'ok',
  member_count: members,
  online_count: online,
});
const unknown = (h: number): HistoryPoint => ({
  checked_at: hoursAgo(h),
  outcome: 'unknown_invite',
  member_count: null,
  online_count: null,
});
const context = { nicheShare: 0.12, niche: 'Crypto', now: NOW };
const rules = (history: HistoryPoint[]) => detectAnomalies(history, context).map((a) => a.rule);

describe('spike_no_presence', () => {
  it('fires when members jump in a day and online people do not follow, and says so in numbers', () => {
    const [flag] = detectAnomalies([ok(48, 19_800, 590), ok(24, 20_000, 588), ok(0, 50_000, 600)], context);
    expect(flag?.rule).toBe('spike_no_presence');
    expect(flag?.detail).toBe(
      'Members rose by 30,000 (+150\u00a0%) in 24 hours (20,000 → 50,000) while online people changed by +12 (588 → 600).',
    );
  });

  it('stays quiet when online people grow with the members', () => {
    expect(rules([ok(24, 20_000, 2_000), ok(0, 30_000, 3_100)])).toEqual([]);
  });

  it('stays quiet for a small jump and without a check a day earlier', () => {
    expect(rules([ok(24, 500, 50), ok(0, 650, 50)])).toEqual([]);
    expect(rules([ok(60, 20_000, 588), ok(0, 50_000, 600)])).toEqual([]);
  });
});

describe('low_presence', () => {
  const days = (n: number, members: number, online: number) =>
    Array.from({ length: n }, (_, i) => ok((n - 1 - i) * 24, members, online));

  it('fires on seven checks in a row under a quarter of the niche median', () => {
    const found = detectAnomalies(days(7, 10_000, 200), context);
    expect(found.map((a) => a.rule)).toEqual(['low_presence']);
    expect(found[0]!.detail).toContain('2.0\u00a0% on the last 7 checks');
    expect(found[0]!.detail).toContain('Crypto median (12.0\u00a0%)');
  });

  it('needs all seven checks: six low ones or one normal one keep it quiet', () => {
    expect(rules(days(6, 10_000, 200))).toEqual([]);
    expect(rules([...days(6, 10_000, 200), ok(-1, 10_000, 1_500)])).toEqual([]);
  });

  it('leaves small servers alone', () => {
    expect(rules(days(7, 900, 5))).toEqual([]);
  });
});

describe('repeated_unknown', () => {
  it('fires when the invite is unknown three times in 30 days and works again in between', () => {
    const found = detectAnomalies(
      [unknown(400), ok(380, 1_000, 100), unknown(200), unknown(100), ok(2, 1_000, 100)],
      context,
    );
    expect(found.map((a) => a.rule)).toEqual(['repeated_unknown']);
    expect(found[0]!.detail).toMatch(/^Discord did not know the invite on 3 checks in the last 30 days/);
  });

  it('leaves a plainly dead invite to the state machine, and forgets answers older than 30 days', () => {
    expect(rules([ok(100, 1_000, 100), unknown(72), unknown(48), unknown(24)])).toEqual([]);
    expect(rules([unknown(1_000), unknown(900), unknown(800), ok(2, 1_000, 100)])).toEqual([]);
  });
});

it('a healthy history raises nothing', () => {
  expect(rules(Array.from({ length: 30 }, (_, i) => ok((29 - i) * 24, 5_000 + i * 10, 700 + i)))).toEqual([]);
});
