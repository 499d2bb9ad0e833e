import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { INVITE_STATUSES, type InviteStatus } from '../../src/lib/enums';
import type { Db } from '../client';
import { discordServers } from '../schema';

/** A listing as the Freshness screen shows it: its invite state and last checks. */
export interface InviteStateRow {
  id: number;
  name: string;
  slug: string;
  invite_status: InviteStatus;
  invite_code: string | null;
  last_checked_at: string | null;
  last_ok_at: string | null;
  next_check_at: string;
  fail_streak: number;
  first_fail_at: string | null;
  is_active: boolean;
}

/** How many listings are in each invite state (every state present, 0 when none). */
export async function countByInviteStatus(db: Db): Promise<Record<InviteStatus, number>> {
  const rows = await db
    .select({ status: discordServers.invite_status, n: sql<number>`count(*)` })
    .from(discordServers)
    .groupBy(discordServers.invite_status);
  const counts = Object.fromEntries(INVITE_STATUSES.map((s) => [s, 0])) as Record<InviteStatus, number>;
  for (const r of rows) if (r.status in counts) counts[r.status] = r.n;
  return counts;
}

/**
 * Listings in one invite state, or in any state but ok when none is given, longest unchecked
 * first (never-checked ones lead), one page with the total.
 */
export async function listByInviteStatus(
  db: Db,
  options: { status?: InviteStatus | undefined; page?: number; perPage?: number } = {},
): Promise<{ servers: InviteStateRow[]; total: number }> {
  const perPage = options.perPage ?? 25;
  const page = options.page ?? 1;
  const where = options.status
    ? eq(discordServers.invite_status, options.status)
    : ne(discordServers.invite_status, 'ok');
  const [servers, [count]] = await Promise.all([
    db
      .select({
        id: discordServers.id,
        name: discordServers.name,
        slug: discordServers.slug,
        invite_status: discordServers.invite_status,
        invite_code: discordServers.invite_code,
        last_checked_at: discordServers.last_checked_at,
        last_ok_at: discordServers.last_ok_at,
        next_check_at: discordServers.next_check_at,
        fail_streak: discordServers.fail_streak,
        first_fail_at: discordServers.first_fail_at,
        is_active: discordServers.is_active,
      })
      .from(discordServers)
      .where(and(where))
      .orderBy(
        sql`${discordServers.last_checked_at} IS NOT NULL`,
        asc(discordServers.last_checked_at),
        asc(discordServers.id),
      )
      .limit(perPage)
      .offset((page - 1) * perPage),
    db.select({ n: sql<number>`count(*)` }).from(discordServers).where(where),
  ]);
  return { servers, total: count?.n ?? 0 };
}
