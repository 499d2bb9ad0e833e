import { and, asc, desc, eq, gte, sql } from 'drizzle-orm';
import { LIMITS } from '../../src/lib/enums';
import { lastUtcDays } from '../../src/lib/utc-days';
import type { Db } from '../client';
import { premiumServerPerformance, premiumServerRevenue, serverAnalytics, userInteractions } from '../schema';
import type { Funnel } from './interactions';

/** One currency's money of a premium listing, in its smallest unit (the premium_server_revenue view). */
export interface PremiumRevenue {
  currency: string;
  /** Paid checkouts minus refunds, ever. */
  total_cents: number;
  /** Paid checkouts minus refunds over the last 30 days, per day (rounded). */
  daily_cents: number;
}

/**
 * A premium or sponsored listing's traffic (the premium_server_performance view) and its revenue
 * per currency (premium_server_revenue): amounts in different currencies are never added into one figure.
 */
export type PremiumPerformance = typeof premiumServerPerformance.$inferSelect & { revenue: PremiumRevenue[] };

/** One server's figures for one UTC day (server_analytics view). */
export type ServerAnalyticsDay = typeof serverAnalytics.$inferSelect;

/** Premium and sponsored servers' traffic and revenue per currency, most conversions first. */
export async function listPremiumPerformance(db: Db): Promise<PremiumPerformance[]> {
  const [servers, money] = await Promise.all([
    db
      .select()
      .from(premiumServerPerformance)
      .orderBy(desc(premiumServerPerformance.conversions), desc(premiumServerPerformance.clicks)),
    db
      .select()
      .from(premiumServerRevenue)
      .where(sql`${premiumServerRevenue.total_cents} != 0 OR ${premiumServerRevenue.daily_cents} != 0`)
      .orderBy(asc(premiumServerRevenue.currency)),
  ]);
  return servers.map((row) => ({
    ...row,
    revenue: money
      .filter((m) => m.server_id === row.server_id)
      .map((m) => ({ currency: m.currency, total_cents: Number(m.total_cents), daily_cents: Number(m.daily_cents) })),
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
