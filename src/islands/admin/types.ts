/** Shapes of the /api/admin answers the console reads (type-only imports: nothing server-side ships). */

import type { PremiumPerformance, ServerAnalyticsDay } from '../../../db/queries/analytics';
import type { ActionTotals, Funnel } from '../../../db/queries/interactions';
import type { NewsletterStats } from '../../../db/queries/newsletter';
import type { PublicOperator } from '../../../db/queries/operators';
import type { SubmissionStats } from '../../../db/queries/submissions';
import type {
  AuditRow,
  ContactRow,
  ContentRow,
  ReportRow,
  ServerRow,
  SubmissionRow,
  SubscriberRow,
} from '../../../db/schema';
import type { RebuildStatus } from '../../../functions/_app/context';

export type {
  ActionTotals,
  AuditRow,
  ContactRow,
  ContentRow,
  Funnel,
  NewsletterStats,
  PremiumPerformance,
  ReportRow,
  ServerRow,
  SubmissionRow,
  SubmissionStats,
  SubscriberRow,
};
/** One operator as the console sees it. */
export type Operator = PublicOperator;
/** One day of a server's analytics. */
export type AnalyticsDay = ServerAnalyticsDay;
/** The site's rebuild state, and whether a rebuild trigger is configured at all. */
export type BuildStatus = RebuildStatus & { configured: boolean };

export interface SessionInfo {
  operator: Operator;
  csrfToken: string;
}

export interface Dashboard {
  funnel: Funnel;
  /** Every kind's count and conversion value over the same 7 days, and their sum. */
  totals: ActionTotals;
  daily: (Funnel & { date: string })[];
  submissions: SubmissionStats;
  pending: SubmissionRow[];
  openReports: { total: number; byServer: Omit<ReportGroup, 'reports'>[] };
  newsletter: NewsletterStats;
  premium: PremiumPerformance[];
}

export interface ReportGroup {
  server_id: number;
  name: string | null;
  slug: string | null;
  total: number;
  open: number;
  latest_at: string;
  reports: ReportRow[];
}
