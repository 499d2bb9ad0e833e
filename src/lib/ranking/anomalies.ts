import type { CheckOutcome } from '../enums';
import { formatPercent } from '../format';

/** The anomaly rules (design note B4), each a key of server_flags.rule. */
export const ANOMALY_RULES = ['spike_no_presence', 'low_presence', 'repeated_unknown'] as const;
export type AnomalyRule = (typeof ANOMALY_RULES)[number];

/** Rules about member growth: while one is open the rank gives no growth credit. */
export const GROWTH_RULES: readonly AnomalyRule[] = ['spike_no_presence'];

/** What moderators read of each rule in the console. */
export const ANOMALY_LABELS: Record<AnomalyRule, string> = {
  spike_no_presence: 'Member jump without online growth',
  low_presence: 'Online share far below the niche',
  repeated_unknown: 'Invite repeatedly unknown',
};

/** Thresholds of the rules and the flag lifecycle, in one place. */
export const ANOMALY = {
  /** A jump is at least this many members and this fraction of the count a day earlier… */
  spikeMinMembers: 200,
  spikeMinFraction: 0.2,
  /** …while online people grew by at most this fraction of the jump. */
  spikePresenceRatio: 0.02,
  /** "A day earlier": a check between 20 and 28 hours before the latest. */
  spikeFromHours: 20,
  spikeToHours: 28,
  /** Low presence: at least this many members, online share under this fraction of the niche median, on this many checks in a row. */
  lowPresenceMinMembers: 1_000,
  lowPresenceFactor: 0.25,
  lowPresenceChecks: 7,
  /** Repeated unknown: this many unknown-invite answers within the window, the invite working again in between. */
  unknownAnswers: 3,
  unknownWindowDays: 30,
  /** Flags close by themselves after this many days without the rule firing (confirmed ones later). */
  quietDays: 14,
  confirmedQuietDays: 30,
  /** A dismissed rule does not reopen on the same listing for this long. */
  dismissedDays: 30,
} as const;

/** One check of a listing's history (a server_snapshots row). */
export interface HistoryPoint {
  checked_at: string;
  outcome: CheckOutcome;
  member_count: number | null;
  online_count: number | null;
}

/** A rule that fired, with the sentence a moderator reads. */
export interface Anomaly {
  rule: AnomalyRule;
  detail: string;
}

const HOUR = 3_600_000;
const num = (n: number) => Math.round(n).toLocaleString('en-US');
const signed = (n: number) => `${n >= 0 ? '+' : '−'}${num(Math.abs(n))}`;
const pct = (x: number) => formatPercent(x, { digits: 1 });

type CountedPoint = HistoryPoint & { member_count: number; online_count: number };
const counted = (p: HistoryPoint): p is CountedPoint =>
  p.outcome === 'ok' && p.member_count !== null && p.online_count !== null;

/** Members jumped within about a day while online people did not follow (bought or offline accounts). */
function spikeNoPresence(points: CountedPoint[]): Anomaly | null {
  const last = points.at(-1);
  if (!last) return null;
  const at = Date.parse(last.checked_at);
  let before: CountedPoint | null = null;
  for (const p of points) {
    const hours = (at - Date.parse(p.checked_at)) / HOUR;
    if (hours < ANOMALY.spikeFromHours || hours > ANOMALY.spikeToHours) continue;
    if (!before || Math.abs(hours - 24) < Math.abs((at - Date.parse(before.checked_at)) / HOUR - 24)) before = p;
  }
  if (!before) return null;
  const dm = last.member_count - before.member_count;
  const dp = last.online_count - before.online_count;
  if (dm < Math.max(ANOMALY.spikeMinMembers, ANOMALY.spikeMinFraction * before.member_count)) return null;
  if (dp > ANOMALY.spikePresenceRatio * dm) return null;
  const hours = Math.round((at - Date.parse(before.checked_at)) / HOUR);
  const growth = before.member_count > 0 ? ` (${formatPercent(dm / before.member_count, { signed: true })})` : '';
  return {
    rule: 'spike_no_presence',
    detail: `Members rose by ${num(dm)}${growth} in ${hours} hours (${num(before.member_count)} → ${num(last.member_count)}) while online people changed by ${signed(dp)} (${num(before.online_count)} → ${num(last.online_count)}).`,
  };
}

/** A large server whose online share stays far below its niche's (bot-filled or abandoned). */
function lowPresence(points: CountedPoint[], nicheShare: number, niche: string): Anomaly | null {
  const recent = points.slice(-ANOMALY.lowPresenceChecks);
  if (recent.length < ANOMALY.lowPresenceChecks || nicheShare <= 0) return null;
  const limit = ANOMALY.lowPresenceFactor * nicheShare;
  const shares = recent.map((p) => (p.member_count > 0 ? p.online_count / p.member_count : 1));
  if (recent.some((p, i) => p.member_count < ANOMALY.lowPresenceMinMembers || shares[i]! >= limit)) return null;
  const lo = Math.min(...shares);
  const hi = Math.max(...shares);
  return {
    rule: 'low_presence',
    detail: `Online share ${lo === hi ? pct(lo) : `${pct(lo)} to ${pct(hi)}`} on the last ${recent.length} checks (${num(recent.at(-1)!.online_count)} of ${num(recent.at(-1)!.member_count)} members online), under a quarter of the ${niche} median (${pct(nicheShare)}).`,
  };
}

/** Discord kept forgetting the invite and it kept coming back: a flapping or swapped invite. */
function repeatedUnknown(points: HistoryPoint[], now: Date): Anomaly | null {
  const from = now.getTime() - ANOMALY.unknownWindowDays * 24 * HOUR;
  const recent = points.filter((p) => Date.parse(p.checked_at) >= from);
  const unknown = recent.filter((p) => p.outcome === 'unknown_invite');
  if (unknown.length < ANOMALY.unknownAnswers) return null;
  const first = unknown[0]!.checked_at;
  const backAgain = recent.filter((p) => p.outcome === 'ok' && p.checked_at > first).length;
  if (backAgain === 0) return null;
  return {
    rule: 'repeated_unknown',
    detail: `Discord did not know the invite on ${unknown.length} checks in the last ${ANOMALY.unknownWindowDays} days (last ${unknown.at(-1)!.checked_at.slice(0, 10)}), and it worked again ${backAgain === 1 ? 'once' : `${backAgain} times`} in between.`,
  };
}

/**
 * The rules that fire on one listing's history (oldest check first), each with its sentence:
 * a moderator confirms or dismisses them; nothing here accuses anyone publicly.
 */
export function detectAnomalies(
  history: readonly HistoryPoint[],
  context: { nicheShare: number; niche: string; now: Date },
): Anomaly[] {
  const sorted = [...history].sort((a, b) => (a.checked_at < b.checked_at ? -1 : a.checked_at > b.checked_at ? 1 : 0));
  const points = sorted.filter(counted);
  return [
    spikeNoPresence(points),
    lowPresence(points, context.nicheShare, context.niche),
    repeatedUnknown(sorted, context.now),
  ].filter((a): a is Anomaly => a !== null);
}
