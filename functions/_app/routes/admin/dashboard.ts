import { Hono } from 'hono';
import { listDailyFunnel, listPremiumPerformance } from '../../../../db/queries/analytics';
import { getActionTotals, getFunnel } from '../../../../db/queries/interactions';
import { getNewsletterStats } from '../../../../db/queries/newsletter';
import { countReportsByServer } from '../../../../db/queries/reports';
import { getSubmissionStats, listSubmissions } from '../../../../db/queries/submissions';
import { LIMITS } from '../../../../src/lib/enums';
import { type AdminEnv, requireRole } from '../../middleware/auth';

/** The dashboard in one call: funnel, each action's count and worth, queues, newsletter and premium performance; admins. */
export const dashboardRoutes = new Hono<AdminEnv>().use(requireRole('admin')).get('/', async (c) => {
  const db = c.get('deps').db;
  const [funnel, totals, daily, submissions, pending, reports, newsletter, premium] = await Promise.all([
    getFunnel(db, { days: LIMITS.funnelDays }),
    getActionTotals(db, { days: LIMITS.funnelDays }),
    listDailyFunnel(db, LIMITS.funnelDays),
    getSubmissionStats(db),
    listSubmissions(db, { status: 'pending', perPage: 5 }),
    countReportsByServer(db, 'open'),
    getNewsletterStats(db),
    listPremiumPerformance(db),
  ]);
  return c.json({
    funnel,
    totals,
    daily,
    submissions,
    pending: pending.submissions,
    openReports: { total: reports.reduce((n, r) => n + r.open, 0), byServer: reports.slice(0, 5) },
    newsletter,
    premium,
  });
});
