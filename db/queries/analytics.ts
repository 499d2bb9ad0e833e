import { and, desc, eq, gte, sql } from 'drizzle-orm';
import { LIMITS } from '../../src/lib/enums';
import type { Db } from '../client';
import { premiumServerPerformance, serverAnalytics, userInteractions } from '../schema';

export type PremiumPerformance = typeof premiumServerPerformance.$inferSelect;
export type ServerAnalyticsDay = typeof serverAnalytics.$inferSelect;

/** Views, clicks, signups and conversions over a window. */
export interface Funnel {
  views: number;
  clicks: number;
  signups: number;
  conversions: number;
}

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

/** Funnel counts over the last `days` days (default 7), for every server or one. */
export async function getFunnel(db: Db, days: number = LIMITS.funnelDays, serverId?: number): Promise<Funnel> {
  const since = new Date(Date.now() - days * 86_400_000).toISOString();
  const [row] = await db
    .select({
      views: sql<number>`coalesce(sum(${userInteractions.interaction_type} = 'view'), 0)`,
      clicks: sql<number>`coalesce(sum(${userInteractions.interaction_type} = 'click'), 0)`,
      signups: sql<number>`coalesce(sum(${userInteractions.interaction_type} = 'signup'), 0)`,
      conversions: sql<number>`coalesce(sum(${userInteractions.interaction_type} = 'conversion'), 0)`,
    })
    .from(userInteractions)
    .where(
      and(
        gte(userInteractions.created_at, since),
        serverId === undefined ? undefined : eq(userInteractions.server_id, serverId),
      ),
    );
  return {
    views: Number(row?.views ?? 0),
    clicks: Number(row?.clicks ?? 0),
    signups: Number(row?.signups ?? 0),
    conversions: Number(row?.conversions ?? 0),
  };
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
