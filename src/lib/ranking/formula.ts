import type { InviteStatus } from '../enums';

/**
 * Every weight and cap of the rank score, in one place: a later issue publishes them on a
 * "How ranking works" page. Paid placement is not among them and never will be.
 */
export const RANK = {
  /** Bayesian prior: a listing's online share is pulled toward its niche median as if it had this many more members. */
  priorMembers: 500,
  /** Bounds of the size-adjusted online share relative to the niche median. */
  engagementMin: 0.7,
  engagementMax: 1.2,
  /** The niche median online share when a niche has no checked listings yet. */
  defaultNicheShare: 0.12,
  /** Growth credit over 30 days is capped at ±10 %, and measured against at least this many members. */
  growthCap: 0.1,
  growthFloorMembers: 100,
  /** Join clicks per view: Wilson lower bound at this z (90 % one-sided), weighted ×2. */
  wilsonZ: 1.645,
  interestWeight: 2,
  /** Freshness: full for 36 hours after the last working check, then halves every 48 hours. */
  freshGraceHours: 36,
  freshHalfLifeHours: 48,
  /** Each open report costs 10 %, at most three count (−30 %) until a moderator acts. */
  reportStep: 0.1,
  reportCap: 3,
  /** An open (unreviewed or confirmed) anomaly flag multiplies the score by this. */
  flagFactor: 0.7,
  /** A new listing gets up to +15 %, fading with a 14-day time constant. */
  newBoost: 0.15,
  newTauDays: 14,
  /** Invites paused by the server's admins: half the score; a suspect invite counts for 48 hours. */
  pausedFactor: 0.5,
  suspectGraceHours: 48,
  /** Windows of the signals (recomputeRanks reads them). */
  onlineWindowDays: 7,
  interestWindowDays: 7,
  growthWindowDays: 30,
} as const;

/** What the rank reads of one listing: checked signals only, never a paid flag or a hand-set order. */
export interface RankSignals {
  status: InviteStatus;
  /** Discord's member count at the last check. */
  members: number;
  /** The median online count over the last 7 days of checks. */
  online: number;
  /** The first member count of the last 30 days of checks; null without history. */
  membersBefore: number | null;
  /** The niche's median online share (online / members) over checked listings. */
  nicheShare: number;
  /** Distinct join clicks and views over 7 days. */
  joins: number;
  views: number;
  /** Hours since the last check that found the invite working; null if none ever did. */
  hoursSinceOk: number | null;
  /** Open visitor reports (distinct reporters). */
  openReports: number;
  /** An anomaly flag is open (not dismissed), and whether one of them is about growth. */
  flagOpen: boolean;
  growthFlagOpen: boolean;
  /** Days since the listing was created. */
  ageDays: number;
}

/** The factors of a score (rank_explain): score = activity·engagement·(1+growth)·(1+2·interest)·freshness·trust·newness·status. */
export const RANK_PARTS = [
  'activity',
  'engagement',
  'growth',
  'interest',
  'freshness',
  'trust',
  'newness',
  'status',
] as const;

/** One number per factor of RANK_PARTS. */
export type RankParts = Record<(typeof RANK_PARTS)[number], number>;

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const round4 = (x: number) => Math.round(x * 10_000) / 10_000 || 0;

/** Wilson score interval's lower bound of `hits` out of `trials` (0 without trials): small samples count for little. */
export function wilsonLowerBound(hits: number, trials: number, z: number = RANK.wilsonZ): number {
  const n = Math.max(trials, hits);
  if (n <= 0) return 0;
  const p = hits / n;
  const z2 = z * z;
  return (p + z2 / (2 * n) - z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
}

/** Member growth as a fraction (0.05 = +5 %) from `before` to `now`; 0 without a starting count. */
export function growthFraction(before: number | null, now: number): number {
  return before && before > 0 ? round4((now - before) / before) : 0;
}

/** How much the invite's state lets a listing rank: 0 excludes it (never checked, dead, wrong guild, long suspect). */
export function statusFactor(status: InviteStatus, hoursSinceOk: number | null): number {
  switch (status) {
    case 'ok':
    case 'expiring':
      return 1;
    case 'paused':
      return RANK.pausedFactor;
    case 'suspect':
      return hoursSinceOk !== null && hoursSinceOk <= RANK.suspectGraceHours ? 1 : 0;
    default:
      return 0;
  }
}

/**
 * The rank score of one listing from checked signals (design note B3): online people on a log
 * scale, their share of the members pulled toward the niche median (bought offline members lower
 * it), capped growth, join clicks per view, how recently Discord answered, open reports and
 * flags, and a small fading boost for new listings. Excluded listings score 0.
 */
export function rankScore(s: RankSignals): { score: number; parts: RankParts } {
  const status = statusFactor(s.status, s.hoursSinceOk);
  const share = s.nicheShare > 0 ? s.nicheShare : RANK.defaultNicheShare;
  const online = Math.max(0, s.online);
  const members = Math.max(0, s.members);
  const activity = Math.log10(1 + online);
  const adjustedShare = (online + RANK.priorMembers * share) / (members + RANK.priorMembers);
  const engagement = clamp(adjustedShare / share, RANK.engagementMin, RANK.engagementMax);
  let growth =
    s.membersBefore === null
      ? 0
      : clamp(
          (members - s.membersBefore) / Math.max(s.membersBefore, RANK.growthFloorMembers),
          -RANK.growthCap,
          RANK.growthCap,
        );
  if (s.growthFlagOpen) growth = Math.min(growth, 0);
  const interest = wilsonLowerBound(s.joins, s.views);
  const h = s.hoursSinceOk;
  const freshness =
    h === null ? 0 : h <= RANK.freshGraceHours ? 1 : 0.5 ** ((h - RANK.freshGraceHours) / RANK.freshHalfLifeHours);
  const trust =
    (1 - RANK.reportStep * Math.min(Math.max(0, s.openReports), RANK.reportCap)) * (s.flagOpen ? RANK.flagFactor : 1);
  const newness = 1 + RANK.newBoost * Math.exp(-Math.max(0, s.ageDays) / RANK.newTauDays);
  const parts: RankParts = {
    activity: round4(activity),
    engagement: round4(engagement),
    growth: round4(growth),
    interest: round4(interest),
    freshness: round4(freshness),
    trust: round4(trust),
    newness: round4(newness),
    status,
  };
  const score =
    activity * engagement * (1 + growth) * (1 + RANK.interestWeight * interest) * freshness * trust * newness * status;
  return { score: round4(score), parts };
}
