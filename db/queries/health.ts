import type { Client } from '@libsql/client';
import { sql } from 'drizzle-orm';
import { isBusyError, retryWhileBusy, writeProbeFor } from '../busy';
import type { Db } from '../client';

// Edge-safe: the health route imports this module on the Worker too (db/busy.ts says why).

/** The database as the health route reports it: taking writes, up but refusing them (locked), or unreachable. */
export type DbHealth = 'up' | 'degraded' | 'down';

/** How long the health probe waits out a lock: a write that holds it longer means writes are failing. */
const HEALTH_BUSY_BUDGET_MS = 50;

/**
 * Whether the database takes writes, answered within about 50 ms: a file database is probed
 * for its write lock (a read works even while another process holds that lock); elsewhere
 * (remote libSQL, the Worker) a trivial query tells whether the server answers.
 */
export async function dbHealth(db: Db): Promise<DbHealth> {
  const client = (db as Db & { $client?: Client }).$client;
  const probe = client && writeProbeFor(client);
  try {
    if (probe) await retryWhileBusy(probe, HEALTH_BUSY_BUDGET_MS);
    else await db.run(sql`SELECT 1`);
    return 'up';
  } catch (err) {
    return isBusyError(err) ? 'degraded' : 'down';
  }
}
