// Limits counted per client in the database (client_budgets), so they hold on every replica and
// the Worker: a fixed window per limit and client (its IP hash).
import { and, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { clientBudgets } from '../schema';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Spends one unit of `limit` for `client` at `now`: at most `perWindow` in a fixed window of
 * `windowMs` from the client's first unit. One conditional upsert, so two racing requests cannot
 * both take the last unit; windows closed for longer than a window are swept in the same batch.
 * `spentBefore` is what the client had spent in the window before this request (0: its first).
 */
export async function spendClientBudget(
  db: Db,
  limit: string,
  client: string,
  now: number,
  { perWindow, windowMs }: { perWindow: number; windowMs: number },
): Promise<{ ok: true; spentBefore: number } | { ok: false; retryAfterMs: number }> {
  const name = `${limit}:${client}`;
  const closed = sql`${clientBudgets.window_start} <= ${iso(now - windowMs)}`;
  const [, rows] = await db.batch([
    db.delete(clientBudgets).where(lte(clientBudgets.window_start, iso(now - 2 * windowMs))),
    db
      .insert(clientBudgets)
      .values({ name, window_start: iso(now), window_count: 1 })
      .onConflictDoUpdate({
        target: clientBudgets.name,
        set: {
          window_start: sql`CASE WHEN ${closed} THEN ${iso(now)} ELSE ${clientBudgets.window_start} END`,
          window_count: sql`CASE WHEN ${closed} THEN 1 ELSE ${clientBudgets.window_count} + 1 END`,
        },
        setWhere: sql`${closed} OR ${clientBudgets.window_count} < ${perWindow}`,
      })
      .returning({ count: clientBudgets.window_count }),
  ]);
  const counted = rows[0]?.count;
  if (counted !== undefined) return { ok: true, spentBefore: counted - 1 };
  const [state] = await db
    .select({ start: clientBudgets.window_start })
    .from(clientBudgets)
    .where(and(eq(clientBudgets.name, name)));
  return { ok: false, retryAfterMs: Math.max(1000, Date.parse(state?.start ?? iso(now)) + windowMs - now) };
}
