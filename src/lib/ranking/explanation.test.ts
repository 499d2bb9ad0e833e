import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { categoryRanks, explainRank, formatFigure, readParts } from './explanation';
import { RANK, RANK_PARTS, rankScore } from './formula';

const base = {
  status: 'ok' as const,
  members: 1000,
  online: 300,
  membersBefore: 500,
  nicheShare: 0.12,
  joins: 30,
  views: 100,
  hoursSinceOk: 2,
  openReports: 0,
  flagOpen: false,
  growthFlagOpen: false,
  ageDays: 400,
};

describe('explainRank', () => {
  it('says a high share and capped growth in plain words, then the score', () => {
    const { score, parts } = rankScore(base);
    const lines = explainRank(parts, score, 'ok');
    // The formula's parts in its order (a new listing's newness and a working invite's status say
    // nothing here), then the score.
    expect(lines.map((l) => l.part)).toEqual([...RANK_PARTS.filter((p) => p !== 'newness' && p !== 'status'), 'score']);
    expect(lines[0]!.text).toBe(
      'About 300 people online at the median check of the last 7 days (activity 2.48, on a log scale).',
    );
    expect(lines[1]!.text).toBe('Online share well above the niche median: capped at ×1.2.');
    expect(lines[2]!.text).toMatch(/^Growth capped: members grew more than \+10\u00a0% in 30 days/);
    expect(lines[4]!.text).toBe('Invite found working within 36 hours of the last recompute: full freshness (×1).');
    expect(lines.at(-1)!.text).toBe(`Score ${score}: the product of the parts above.`);
  });

  it('names a flag, a paused invite, a stale check and a new listing', () => {
    const { score, parts } = rankScore({
      ...base,
      status: 'paused',
      online: 20,
      membersBefore: null,
      hoursSinceOk: 84,
      flagOpen: true,
      ageDays: 0,
    });
    const text = explainRank(parts, score, 'paused').map((l) => l.text);
    expect(text).toContain('Online share far below the niche median: floored at ×0.7.');
    expect(text).toContain('No growth credit: flat, no 30-day history yet, or a growth anomaly under review (×1).');
    expect(text).toContain('Last working check more than 36 hours before the recompute: freshness ×0.5.');
    expect(text).toContain(`Open visitor reports or an anomaly flag under review: ×${RANK.flagFactor}.`);
    expect(text).toContain('New listing boost: ×1.15, fading over its first weeks.');
    expect(text).toContain("The server's admins paused its invite: ×0.5.");
  });

  it('says why an excluded listing has no rank', () => {
    const { score, parts } = rankScore({ ...base, status: 'unchecked', hoursSinceOk: null });
    expect(explainRank(parts, score, 'unchecked')).toEqual([
      { part: 'status', text: 'Not ranked yet: no check has found the invite working.' },
    ]);
  });
});

describe('readParts', () => {
  it('takes a stored explanation of the ranking’s shape only', () => {
    const { parts } = rankScore(base);
    expect(readParts(parts)).toEqual(parts);
    expect(readParts(null)).toBeNull();
    expect(readParts({ activity: 1 })).toBeNull();
  });
});

describe('formatFigure', () => {
  it('prints shares, factors and durations as the ranking page shows them', () => {
    expect(formatFigure(0.1, 'percent')).toBe('10\u00a0%');
    expect(formatFigure(0.15, 'percent')).toBe('15\u00a0%');
    expect(formatFigure(1.2, 'factor')).toBe('×1.2');
    expect(formatFigure(21.6 * 3_600_000, 'hours')).toBe('21.6 hours');
    expect(formatFigure(600_000, 'minutes')).toBe('10 minutes');
    expect(formatFigure(60_000, 'minutes')).toBe('1 minute');
    expect(formatFigure(1000)).toBe('1,000');
  });
});

describe('a percentage never wraps between its number and its sign', () => {
  // A breakable space before "%" let the ranking page print "2" at the end of one line and "%" at
  // the start of the next at 320 px; the figure and its sign are held by a no-break space.
  const breakable = / %/;

  it('in every figure the ranking page prints as a percentage', () => {
    fc.assert(
      fc.property(fc.double({ min: -10, max: 10, noNaN: true }), (share) => {
        const text = formatFigure(share, 'percent');
        expect(text).toMatch(/\u00a0%$/);
        expect(text).not.toMatch(breakable);
      }),
    );
  });

  it('in every "Why this rank" line, whatever the growth', () => {
    fc.assert(
      fc.property(fc.double({ min: -1, max: 3, noNaN: true }), (growth) => {
        const { parts, score } = rankScore(base);
        const lines = explainRank({ ...parts, growth }, score, 'ok');
        for (const line of lines) expect(line.text, line.text).not.toMatch(breakable);
        expect(lines.some((l) => l.text.includes('%')) || growth === 0).toBe(true);
      }),
    );
  });
});

describe('categoryRanks', () => {
  it('ranks each category by score, then members, whatever the paid flags', () => {
    const row = (id: number, category: string, rank_score: number, members: number) => ({
      id,
      category,
      rank_score,
      members,
      sort_order: 0,
      created_at: '2026-01-01T00:00:00.000Z',
      growth_30d: 0,
    });
    const ranks = categoryRanks([
      row(1, 'Gaming', 1, 10),
      row(2, 'Gaming', 2, 5),
      row(3, 'Crypto', 0, 9),
      row(4, 'Gaming', 1, 20),
    ]);
    expect(ranks.get(2)).toEqual({ rank: 1, of: 3 });
    expect(ranks.get(4)).toEqual({ rank: 2, of: 3 });
    expect(ranks.get(1)).toEqual({ rank: 3, of: 3 });
    expect(ranks.get(3)).toEqual({ rank: 1, of: 1 });
  });
});
