// Reads over every listing in steps of ids, with a turn of the event loop between steps
// (src/lib/steps.ts): the rank recompute, the niche medians, the newsletter's growth.
import { sql } from 'drizzle-orm';
import { nextTurn } from '../../src/lib/steps';
import type { Db } from '../client';
import { discordServers } from '../schema';

/**
 * Listing ids per step of a read over every listing: the native driver reads synchronously, so at
 * a million listings one read of every row held the server for 6 s. 2,000 ids, with a turn between
 * each of their reads: about 40 ms at most with a week of daily checks each (the rank's median
 * online count is the costliest read).
 */
export const IDS_PER_STEP = 2_000;

/** One step's listing ids: `from` to `to` (excluded), and the same as a WHERE on discord_servers.id with its arguments. */
export interface IdStep {
  from: number;
  to: number;
  where: string;
  args: [number, number];
}

/**
 * Listing ids (or rows) per step on `db`: IDS_PER_STEP on a local file, whose driver reads on the
 * event loop; all at once on a remote database (Turso over HTTP, the Worker), whose reads wait on
 * the network without holding the event loop, and where each read is a subrequest the Worker's
 * invocation counts (50 on the Free plan): in steps, a recompute of 20,000 listings would ask 60.
 */
export function stepSize(db: Db): number {
  return (db as Db & { $client?: { protocol?: string } }).$client?.protocol === 'file'
    ? IDS_PER_STEP
    : Number.MAX_SAFE_INTEGER;
}

/** Each step's id range from the lowest listing id to the highest, in order, with a turn before every step after the first. */
export async function* idSteps(db: Db): AsyncGenerator<IdStep> {
  const [bounds] = await db.all<{ low: number | null; high: number | null }>(
    sql`SELECT min(${discordServers.id}) AS low, max(${discordServers.id}) AS high FROM ${discordServers}`,
  );
  const low = Number(bounds?.low ?? 0);
  const high = Number(bounds?.high ?? 0);
  const size = Math.min(stepSize(db), high - low + 1);
  for (let from = low; from <= high && high > 0; from += size) {
    if (from > low) await nextTurn();
    const to = from + size;
    yield { from, to, where: 'id >= ? AND id < ?', args: [from, to] };
  }
}
