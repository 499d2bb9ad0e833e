/**
 * The public moderation log (#32): per month, counts only (no names, nothing personal, no listing
 * that was never public): submissions received, approved, rejected by reason, listings hidden by
 * reason, appeals and their outcomes, reports received and acted on, the median decision time.
 * Pure: db/queries/moderation.ts counts, /moderation shows.
 */

import { median } from './queue';

/** One month of the log. */
export interface MonthLog {
  /** 'YYYY-MM' (UTC). */
  month: string;
  received: number;
  approved: number;
  rejected: number;
  /** Rejections by reason (a rejection with two reasons counts under both). */
  rejectedBy: Record<string, number>;
  hidden: number;
  hiddenBy: Record<string, number>;
  appeals: number;
  upheld: number;
  overturned: number;
  reportsReceived: number;
  reportsActedOn: number;
  /** Median ms from submission to decision of the month's decisions (formatDuration states it); null without any. */
  medianDecisionMs: number | null;
}

/** An empty month. */
export const emptyMonth = (month: string): MonthLog => ({
  month,
  received: 0,
  approved: 0,
  rejected: 0,
  rejectedBy: {},
  hidden: 0,
  hiddenBy: {},
  appeals: 0,
  upheld: 0,
  overturned: 0,
  reportsReceived: 0,
  reportsActedOn: 0,
  medianDecisionMs: null,
});

/** The rows the query layer counts: each a month and what happened, one row per event. */
export type LogEvent =
  | { month: string; kind: 'received' | 'approved' | 'appeal' | 'upheld' | 'overturned' | 'report' | 'acted' }
  | { month: string; kind: 'rejected' | 'hidden'; reasons: readonly string[] }
  | { month: string; kind: 'decision'; ms: number };

/** The months of `events`, newest first, each with its counts. */
export function monthLog(events: readonly LogEvent[]): MonthLog[] {
  const months = new Map<string, MonthLog>();
  const times = new Map<string, number[]>();
  const of = (m: string) => {
    let row = months.get(m);
    if (!row) {
      row = emptyMonth(m);
      months.set(m, row);
    }
    return row;
  };
  for (const e of events) {
    const row = of(e.month);
    switch (e.kind) {
      case 'received':
        row.received++;
        break;
      case 'approved':
        row.approved++;
        break;
      case 'appeal':
        row.appeals++;
        break;
      case 'upheld':
        row.upheld++;
        break;
      case 'overturned':
        row.overturned++;
        break;
      case 'report':
        row.reportsReceived++;
        break;
      case 'acted':
        row.reportsActedOn++;
        break;
      case 'rejected':
      case 'hidden': {
        const by = e.kind === 'rejected' ? row.rejectedBy : row.hiddenBy;
        if (e.kind === 'rejected') row.rejected++;
        else row.hidden++;
        for (const reason of new Set(e.reasons.length > 0 ? e.reasons : ['not recorded']))
          by[reason] = (by[reason] ?? 0) + 1;
        break;
      }
      case 'decision':
        times.set(e.month, [...(times.get(e.month) ?? []), e.ms]);
        break;
    }
  }
  for (const [m, list] of times) {
    const mid = median(list);
    of(m).medianDecisionMs = mid;
  }
  return [...months.values()].sort((a, b) => b.month.localeCompare(a.month));
}
