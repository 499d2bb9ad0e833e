/** Shapes of the /api/admin answers the console reads (type-only imports: nothing server-side ships). */
import type {
  AuditRow,
  ContactRow,
  ContentRow,
  ReportRow,
  ServerRow,
  SubmissionRow,
  SubscriberRow,
} from '../../../db/schema';

export type { AuditRow, ContactRow, ContentRow, ReportRow, ServerRow, SubmissionRow, SubscriberRow };

export interface Operator {
  id: number;
  email: string;
  role: 'admin' | 'moderator';
}

export interface SessionInfo {
  operator: Operator;
  csrfToken: string;
}

export interface Funnel {
  views: number;
  clicks: number;
  signups: number;
  conversions: number;
}

export interface SubmissionStats {
  total: number;
  pending: number;
  under_review: number;
  approved: number;
  rejected: number;
}

export interface NewsletterStats {
  total: number;
  active: number;
  unsubscribed: number;
  premium: number;
  new_last_7_days: number;
  new_last_30_days: number;
}

export interface PremiumPerformance {
  server_id: number;
  name: string;
  slug: string;
  is_premium: boolean;
  is_sponsored: boolean;
  views: number;
  clicks: number;
  conversions: number;
  total_revenue: number;
  daily_revenue: number;
}

export interface Dashboard {
  funnel: Funnel;
  daily: (Funnel & { date: string })[];
  submissions: SubmissionStats;
  pending: SubmissionRow[];
  openReports: { total: number; byServer: Omit<ReportGroup, 'reports'>[] };
  newsletter: NewsletterStats;
  premium: PremiumPerformance[];
}

export interface AnalyticsDay {
  server_id: number;
  date: string;
  views: number;
  clicks: number;
  signups: number;
  conversions: number;
  revenue: number;
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

export interface BuildStatus {
  configured: boolean;
  state: 'idle' | 'queued' | 'building' | 'failed';
  liveSince: string | null;
  lastDurationMs: number | null;
  lastError: string | null;
  lastReason: string | null;
}
