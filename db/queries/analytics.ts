import { and, desc, eq, gte, sql } from 'drizzle-orm';
import { LIMITS } from '../../src/lib/enums';
import type { Db } from '../client';
import { premiumServerPerformance, serverAnalytics, userInteractions } from '../schema';
import type { Funnel } from './interactions';

/** One row of the premium_server_performance view. */
export type PremiumPerformance = typeof premiumServerPerformance.$inferSelect;
/** One server's figures for one UTC day (server_analytics view). */
export type ServerAnalyticsDay = typeof serverAnalytics.$inferSelect;

/** Premium and sponsored servers' traffic and revenue, best daily revenue first. */
export async function listPremiumPerformance(db: Db): Promise<PremiumPerformance[]> {
  return db.select().from(premiumServerPerformance).orderBy(desc(premiumServerPerformance.daily_revenue));
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

/** Funnel counts per UTC day over the last `days` days, oldest first (the dashboard chart). */
export async function listDailyFunnel(
  db: Db,
  days: number = LIMITS.funnelDays,
): Promise<(Funnel & { date: string })[]> {
  const since = new Date(Date.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const rows = await db
    .select({
      date: sql<string>`substr(${userInteractions.created_at}, 1, 10)`,
      views: sql<number>`sum(${userInteractions.interaction_type} = 'view')`,
      clicks: sql<number>`sum(${userInteractions.interaction_type} = 'click')`,
      signups: sql<number>`sum(${userInteractions.interaction_type} = 'signup')`,
      conversions: sql<number>`sum(${userInteractions.interaction_type} = 'conversion')`,
    })
    .from(userInteractions)
    .where(gte(userInteractions.created_at, since))
    .groupBy(sql`substr(${userInteractions.created_at}, 1, 10)`);
  const byDate = new Map(rows.map((r) => [r.date, r]));
  const out: (Funnel & { date: string })[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const date = new Date(Date.now() - i * 86_400_000).toISOString().slice(0, 10);
    const r = byDate.get(date);
    out.push({
      date,
      views: Number(r?.views ?? 0),
      clicks: Number(r?.clicks ?? 0),
      signups: Number(r?.signups ?? 0),
      conversions: Number(r?.conversions ?? 0),
    });
  }
  return out;
}
