import type { Db } from '../../../db/client';
import { addBadgeFetches, type BadgeFetchCount } from '../../../db/queries/badges';

/**
 * Badge fetches counted in memory and added to the daily rows (badge_fetches) in one statement at
 * most every `everyMs` or `maxKeys` listings: a badge answer never waits for a write, and the
 * database holds one row per listing and day, never one per fetch. A flush that fails puts its
 * counts back for the next one. On the Worker the flush runs in the request's waitUntil (an
 * isolate that is stopped loses at most one window of counts: they are an owner's indication,
 * not money).
 */
export class BadgeTally {
  private counts = new Map<string, BadgeFetchCount>();
  private openedAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly write: (counts: BadgeFetchCount[]) => Promise<void>,
    private readonly everyMs = 10_000,
    private readonly maxKeys = 1_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one fetch of `serverId`'s badge; answers the flush when one is due (for waitUntil), else undefined. */
  add(serverId: number): Promise<void> | undefined {
    const t = this.now();
    const day = new Date(t).toISOString().slice(0, 10);
    const key = `${serverId}:${day}`;
    const entry = this.counts.get(key);
    if (entry) entry.fetches++;
    else {
      if (this.counts.size === 0) this.openedAt = t;
      this.counts.set(key, { serverId, day, fetches: 1 });
    }
    if (this.counts.size >= this.maxKeys || t - this.openedAt >= this.everyMs) return this.flush();
    // Node: a timer writes the window out even if no other fetch comes (unref: never keeps a process alive).
    if (!this.timer && typeof setTimeout === 'function') {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flush().catch((err) => console.warn('badge fetch counts not stored:', err));
      }, this.everyMs);
      (this.timer as { unref?: () => void }).unref?.();
    }
    return undefined;
  }

  /** Writes every count held now (one statement); resolves once stored. */
  async flush(): Promise<void> {
    if (this.flushing) await this.flushing;
    if (this.counts.size === 0) return;
    const batch = [...this.counts.values()];
    this.counts = new Map();
    this.flushing = this.write(batch)
      .catch((err) => {
        // Back into the tally: the next flush tries them again.
        for (const c of batch) {
          const key = `${c.serverId}:${c.day}`;
          const entry = this.counts.get(key);
          if (entry) entry.fetches += c.fetches;
          else this.counts.set(key, { ...c });
        }
        throw err;
      })
      .finally(() => {
        this.flushing = undefined;
      });
    await this.flushing;
  }
}

const tallies = new WeakMap<Db, BadgeTally>();

/** The tally of badge fetches of a database (one per database: tests build many in one process). */
export function badgeTallyFor(db: Db): BadgeTally {
  let tally = tallies.get(db);
  if (!tally) {
    tally = new BadgeTally((counts) => addBadgeFetches(db, counts));
    tallies.set(db, tally);
  }
  return tally;
}
