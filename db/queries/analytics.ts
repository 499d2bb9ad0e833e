import { and, desc, eq, gte, sql } from 'drizzle-orm';
import { LIMITS } from '../../src/lib/enums';
import { lastUtcDays } from '../../src/lib/utc-days';
import type { Db } from '../client';
import { orderRefunds, orders, premiumServerPerformance, serverAnalytics, userInteractions } from '../schema';
import type { Funnel } from './interactions';

/** One currency's money of a premium listing, in its smallest unit. */
export interface PremiumRevenue {
  currency: string;
  /** Paid checkouts minus refunds, ever. */
  total_cents: number;
  /** Paid checkouts minus refunds over the last 30 days, per day (rounded). */
  daily_cents: number;
}

/**
 * A premium or sponsored listing's traffic (the premium_server_performance view) and its revenue
 * per currency: amounts in different currencies are never added into one figure.
 */
export type PremiumPerformance = Omit<
  typeof premiumServerPerformance.$inferSelect,
  'total_revenue' | 'daily_revenue'
> & { revenue: PremiumRevenue[] };

/** One server's figures for one UTC day (server_analytics view). */
export type ServerAnalyticsDay = typeof serverAnalytics.$inferSelect;

const REVENUE_WINDOW_DAYS = 30;

/** Premium and sponsored servers' traffic and revenue per currency, most conversions first. */
export async function listPremiumPerformance(db: Db, now = Date.now()): Promise<PremiumPerformance[]> {
  const since = new Date(now - REVENUE_WINDOW_DAYS * 86_400_000).toISOString();
  const [servers, money, refunds] = await Promise.all([
    db
      .select()
      .from(premiumServerPerformance)
      .orderBy(desc(premiumServerPerformance.conversions), desc(premiumServerPerformance.clicks)),
    db
      .select({
        server_id: orders.server_id,
        currency: orders.currency,
        total: sql<number>`sum(CASE WHEN ${orders.paid_at} IS NOT NULL AND ${orders.kind} = 'checkout' THEN ${orders.amount_cents} ELSE 0 END) - sum(${orders.refunded_cents})`,
        recent: sql<number>`coalesce(sum(CASE WHEN ${orders.kind} = 'checkout' AND ${orders.paid_at} >= ${since} THEN ${orders.amount_cents} END), 0)`,
      })
      .from(orders)
      .groupBy(orders.server_id, orders.currency),
    db
      .select({
        server_id: orders.server_id,
        currency: orders.currency,
        recent: sql<number>`sum(${orderRefunds.amount_cents})`,
      })
      .from(orderRefunds)
      .innerJoin(orders, eq(orders.id, orderRefunds.order_id))
      .where(gte(orderRefunds.created_at, since))
      .groupBy(orders.server_id, orders.currency),
  ]);
  const refunded = new Map(refunds.map((r) => [`${r.server_id} ${r.currency}`, Number(r.recent)]));
  return servers.map(({ total_revenue: _total, daily_revenue: _daily, ...row }) => ({
    ...row,
    revenue: money
      .filter((m) => m.server_id === row.server_id && (Number(m.total) !== 0 || Number(m.recent) !== 0))
      .map((m) => ({
        currency: m.currency,
        total_cents: Number(m.total),
        daily_cents: Math.round(
          (Number(m.recent) - (refunded.get(`${m.server_id} ${m.currency}`) ?? 0)) / REVENUE_WINDOW_DAYS,
        ),
      }))
      .sort((a, b) => a.currency.localeCompare(b.currency)),
  }));
}

/** One server's per-day figures for the last `days` days (default 30), newest first. */
export async function listServerAnalytics(
  db: Db,
  serverId: number,
  days: number = LIMITS.analyticsDays,
): Promise<ServerAnalyticsDay[]> {
  const since = new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  return db
    .select()
    .from(serverAnalytics)
    .where(and(eq(serverAnalytics.server_id, serverId), gte(serverAnalytics.date, since)))
    .orderBy(desc(serverAnalytics.date));
}

/**
 * Funnel counts per UTC day over the last `days` calendar days, today included (utc-days.ts: the
 * window of the dashboard's tiles too), oldest first (the dashboard chart).
 */
export async function listDailyFunnel(
  db: Db,
  days: number = LIMITS.funnelDays,
  now = Date.now(),
): Promise<(Funnel & { date: string })[]> {
  const dates = lastUtcDays(days, now);
  const rows = await db
    .select({
      date: sql<string>`substr(${userInteractions.created_at}, 1, 10)`,
      views: sql<number>`sum(${userInteractions.interaction_type} = 'view')`,
      clicks: sql<number>`sum(${userInteractions.interaction_type} = 'click')`,
      signups: sql<number>`sum(${userInteractions.interaction_type} = 'signup')`,
      conversions: sql<number>`sum(${userInteractions.interaction_type} = 'conversion')`,
    })
    .from(userInteractions)
    .where(gte(userInteractions.created_at, dates[0]!))
    .groupBy(sql`substr(${userInteractions.created_at}, 1, 10)`);
  const byDate = new Map(rows.map((r) => [r.date, r]));
  return dates.map((date) => {
    const r = byDate.get(date);
    return {
      date,
      views: Number(r?.views ?? 0),
      clicks: Number(r?.clicks ?? 0),
      signups: Number(r?.signups ?? 0),
      conversions: Number(r?.conversions ?? 0),
    };
  });
}
