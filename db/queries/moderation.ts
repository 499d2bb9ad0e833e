import { and, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import { QUEUE_WINDOW_DAYS, type QueueFigures, queueFigures } from '../../src/lib/moderation/queue';
import type { Db } from '../client';
import { serverSubmissions } from '../schema';

const DAY_MS = 86_400_000;

/**
 * The queue figures at `now` (#32): submissions waiting (pending or under review), and the time
 * from submission to decision of every submission decided in the last QUEUE_WINDOW_DAYS days.
 */
export async function readQueueFigures(db: Db, now = Date.now()): Promise<QueueFigures> {
  const since = new Date(now - QUEUE_WINDOW_DAYS * DAY_MS).toISOString();
  const [decided, [waiting]] = await Promise.all([
    db
      .select({ created_at: serverSubmissions.created_at, decided_at: serverSubmissions.decided_at })
      .from(serverSubmissions)
      .where(and(isNotNull(serverSubmissions.decided_at), gte(serverSubmissions.decided_at, since))),
    db
      .select({ n: sql<number>`count(*)` })
      .from(serverSubmissions)
      .where(inArray(serverSubmissions.status, ['pending', 'under_review'])),
  ]);
  return queueFigures(
    decided.map((d) => Date.parse(d.decided_at!) - Date.parse(d.created_at)),
    Number(waiting?.n ?? 0),
  );
}
