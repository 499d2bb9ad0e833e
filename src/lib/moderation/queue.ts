/**
 * The review queue in the open (#32): how many submissions wait, and the median and 90th-percentile
 * time to a decision over the last 30 days, computed from the decisions themselves. A typical time
 * is stated only with at least MIN_DECISIONS decisions; with fewer the site says there is too
 * little data. Pure: the submit page, the "received" mail and /moderation read it.
 */

import { formatDuration } from '../format';

/** The window the decision times are taken from. */
export const QUEUE_WINDOW_DAYS = 30;
/** Fewer decisions than this in the window: no typical time is stated. */
export const MIN_DECISIONS = 10;

/** The median of `values` (the mean of the two middle ones for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The p-th percentile (0 < p <= 100) by the nearest-rank method: the smallest value with p% at or below it. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

/** The queue as the site states it. */
export interface QueueFigures {
  /** Submissions waiting for a decision (pending or under review). */
  waiting: number;
  /** Decisions in the window. */
  decisions: number;
  /** Milliseconds from submission to decision; null when there are fewer than MIN_DECISIONS decisions. */
  medianMs: number | null;
  p90Ms: number | null;
}

/** The figures from the decision times (ms from submission to decision) in the window and the waiting count. */
export function queueFigures(decisionMs: readonly number[], waiting: number): QueueFigures {
  const times = decisionMs.filter((ms) => Number.isFinite(ms) && ms >= 0);
  if (times.length < MIN_DECISIONS) return { waiting, decisions: times.length, medianMs: null, p90Ms: null };
  return { waiting, decisions: times.length, medianMs: median(times)!, p90Ms: percentile(times, 90)! };
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The sentence the submit page and the "received" mail state. Each time is rounded up (formatDuration's
 * `up`), so "within" stays true: decisions taken in minutes say minutes, not "1 hour".
 */
export function queueSentence(f: QueueFigures): string {
  const waiting = `${plural(f.waiting, 'submission is', 'submissions are')} waiting for review.`;
  if (f.medianMs === null || f.p90Ms === null)
    return `${waiting} There is too little data for a typical review time: ${plural(f.decisions, 'decision', 'decisions')} in the last ${QUEUE_WINDOW_DAYS} days (we state one from ${MIN_DECISIONS}).`;
  const median = formatDuration(f.medianMs, { round: 'up' });
  return `${waiting} Usually within ${median}: over the last ${QUEUE_WINDOW_DAYS} days half of ${plural(f.decisions, 'decision', 'decisions')} came within ${median}, and 9 in 10 within ${formatDuration(f.p90Ms, { round: 'up' })}.`;
}
