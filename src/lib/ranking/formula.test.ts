import { describe, expect, it } from 'vitest';
import { growthFraction, RANK, type RankSignals, rankScore, wilsonLowerBound } from './formula';

/** A healthy, checked listing; each case changes what it is about. */
const base: RankSignals = {
  status: 'ok',
  members: 12_000,
  online: 1_500,
  membersBefore: 11_600,
  nicheShare: 0.1,
  joins: 60,
  views: 400,
  hoursSinceOk: 5,
  openReports: 0,
  flagOpen: false,
  growthFlagOpen: false,
  ageDays: 200,
};
const score = (change: Partial<RankSignals>) => rankScore({ ...base, ...change }).score;

describe('rankScore', () => {
  it('orders a fixture of listings by checked activity, not by size', () => {
    const fixture: [string, Partial<RankSignals>][] = [
      ['busy mid-size', {}],
      ['new and lively', { members: 800, online: 120, membersBefore: 700, joins: 25, views: 90, ageDays: 3 }],
      ['huge but quiet', { members: 200_000, online: 9_000, membersBefore: 199_000, joins: 40, views: 2_000 }],
      ['busy with two reports', { openReports: 2 }],
      [
        'bought members, flagged',
        {
          members: 50_000,
          online: 600,
          membersBefore: 20_000,
          flagOpen: true,
          growthFlagOpen: true,
          joins: 10,
          views: 500,
        },
      ],
      ['busy, last working check 5 days ago', { hoursSinceOk: 120 }],
      ['tiny', { members: 60, online: 4, membersBefore: 55, joins: 0, views: 3 }],
    ];
    const ranked = fixture
      .map(([name, change]) => ({ name, score: score(change) }))
      .sort((a, b) => b.score - a.score)
      .map((r) => r.name);
    expect(ranked).toEqual([
      'busy mid-size',
      'new and lively',
      'busy with two reports',
      'huge but quiet',
      'busy, last working check 5 days ago',
      'bought members, flagged',
      'tiny',
    ]);
  });

  it('never lowers the score when more people are online', () => {
    for (const members of [50, 1_000, 40_000, 500_000]) {
      let previous = -1;
      for (let online = 0; online <= members; online += Math.max(1, Math.floor(members / 97))) {
        const s = score({ members, online });
        expect(s, `${online} of ${members}`).toBeGreaterThanOrEqual(previous);
        previous = s;
      }
    }
  });

  it('excludes dead, wrong-guild and never-checked listings (score 0)', () => {
    for (const status of ['dead', 'wrong_guild', 'unchecked'] as const) {
      const r = rankScore({ ...base, status });
      expect(r.score, status).toBe(0);
      expect(r.parts.status, status).toBe(0);
    }
  });

  it('halves a paused invite and drops a suspect one after 48 hours', () => {
    expect(score({ status: 'paused' })).toBeCloseTo(score({}) / 2, 3);
    expect(score({ status: 'suspect', hoursSinceOk: 20 })).toBe(score({ hoursSinceOk: 20 }));
    expect(score({ status: 'suspect', hoursSinceOk: 49 })).toBe(0);
  });

  it('takes no paid-placement input: premium, sponsored and a hand-set order change nothing', () => {
    const paid = { ...base, is_premium: true, is_sponsored: true, sort_order: 999 };
    expect(rankScore(paid)).toEqual(rankScore(base));
    // @ts-expect-error the signals have no paid field to set
    const typed: RankSignals = { ...base, is_premium: true };
    expect(rankScore(typed).score).toBe(rankScore(base).score);
  });

  it('caps growth at ±10 % and gives none while a growth flag is open', () => {
    expect(rankScore({ ...base, membersBefore: 1_000 }).parts.growth).toBe(RANK.growthCap);
    expect(rankScore({ ...base, membersBefore: 100_000 }).parts.growth).toBe(-RANK.growthCap);
    expect(rankScore({ ...base, membersBefore: 1_000, growthFlagOpen: true }).parts.growth).toBe(0);
    expect(rankScore({ ...base, membersBefore: 100_000, growthFlagOpen: true }).parts.growth).toBe(-RANK.growthCap);
  });

  it('keeps full freshness for 36 hours, then halves every 48 hours', () => {
    expect(rankScore({ ...base, hoursSinceOk: 36 }).parts.freshness).toBe(1);
    expect(rankScore({ ...base, hoursSinceOk: 84 }).parts.freshness).toBe(0.5);
    expect(rankScore({ ...base, hoursSinceOk: 132 }).parts.freshness).toBe(0.25);
  });

  it('counts at most three open reports', () => {
    expect(rankScore({ ...base, openReports: 3 }).parts.trust).toBe(0.7);
    expect(rankScore({ ...base, openReports: 30 }).parts.trust).toBe(0.7);
  });

  it('gives the design note worked example X its score', () => {
    // X: 12k members, 1.5k online, r0 = 0.10, 60/400 join CTR, checked 5 h ago, +3.4 % growth.
    const r = rankScore({ ...base, membersBefore: Math.round(12_000 / 1.034), ageDays: 10_000 });
    expect(r.parts.engagement).toBe(1.2);
    expect(r.score).toBeCloseTo(4.92, 1);
  });
});

describe('wilsonLowerBound', () => {
  it('is 0 without views and trusts many views more than a few', () => {
    expect(wilsonLowerBound(0, 0)).toBe(0);
    expect(wilsonLowerBound(5, 10)).toBeLessThan(wilsonLowerBound(500, 1_000));
    expect(wilsonLowerBound(10, 5)).toBeLessThanOrEqual(1);
  });
});

describe('growthFraction', () => {
  it('is the change over the first count, 0 without one', () => {
    expect(growthFraction(1_000, 1_100)).toBe(0.1);
    expect(growthFraction(null, 1_100)).toBe(0);
    expect(growthFraction(0, 1_100)).toBe(0);
  });
});
