import { Hono } from 'hono';
import { listDailyFunnel, listPremiumPerformance } from '../../../../db/queries/analytics';
import { getActionTotals, getFunnel } from '../../../../db/queries/interactions';
import { getNewsletterStats } from '../../../../db/queries/newsletter';
import { revenueByDay } from '../../../../db/queries/orders';
import { countReportsByServer } from '../../../../db/queries/reports';
import { getSubmissionStats, listSubmissions } from '../../../../db/queries/submissions';
import { LIMITS } from '../../../../src/lib/enums';
import { REVENUE_DAYS } from '../../../../src/lib/pricing/plans';
import { lastUtcDays } from '../../../../src/lib/utc-days';
import { type AdminEnv, requireRole } from '../../middleware/auth';

/**
 * The dashboard in one call: funnel, each action's count and worth, revenue per day (money in
 * minus refunds: the Orders screen's query), queues, newsletter and premium performance; admins.
 * Its 7-day figures are the last 7 UTC calendar days, today included, as its chart's bars are.
 */
export const dashboardRoutes = new Hono<AdminEnv>().use(requireRole('admin')).get('/', async (c) => {
  const deps = c.get('deps');
  const db = deps.db;
  const now = deps.now?.() ?? Date.now();
  // The tiles, the chart and the revenue tile count the same days: the last 7 UTC calendar days,
  // today included (`window`, for the screen to name them).
  const days = lastUtcDays(LIMITS.funnelDays, now);
  const [funnel, totals, daily, revenue, submissions, pending, reports, newsletter, premium] = await Promise.all([
    getFunnel(db, { days: LIMITS.funnelDays, now }),
    getActionTotals(db, { days: LIMITS.funnelDays, now }),
    listDailyFunnel(db, LIMITS.funnelDays, now),
    revenueByDay(db, REVENUE_DAYS, now),
    getSubmissionStats(db),
    // The queue works oldest first: the five waiting longest.
    listSubmissions(db, { status: 'pending', perPage: 5, oldestFirst: true }),
    countReportsByServer(db, 'open'),
    getNewsletterStats(db),
    listPremiumPerformance(db),
  ]);
  return c.json({
    window: { from: days[0]!, to: days.at(-1)!, days: LIMITS.funnelDays },
    funnel,
    totals,
    daily,
    revenue,
    submissions,
    pending: pending.submissions,
    openReports: { total: reports.reduce((n, r) => n + r.open, 0), byServer: reports.slice(0, 5) },
    newsletter,
    premium,
  });
});
