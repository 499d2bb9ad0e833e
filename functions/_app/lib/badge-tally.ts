import type { Db } from '../../../db/client';
import { preparedStatementsFor } from '../../../db/prepared';
import { addBadgeFetches, type BadgeFetchCount } from '../../../db/queries/badges';

/**
 * Rows per write on a local file. Its driver is synchronous, so one upsert of a full window (1,000
 * listings: 80-380 ms at a million listings) held every request for as long; 50 rows take a few
 * ms, and requests are answered between them (bench: Badges).
 */
const LOCAL_ROWS_PER_WRITE = 50;

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
    /** Rows per write: the window is written in parts of this many, the event loop free between them. */
    private readonly rowsPerWrite = Number.POSITIVE_INFINITY,
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

  /** Writes every count held now (one statement per rowsPerWrite, in listing order); resolves once stored. */
  async flush(): Promise<void> {
    if (this.flushing) await this.flushing;
    if (this.counts.size === 0) return;
    const batch = [...this.counts.values()].sort((a, b) => a.serverId - b.serverId);
    this.counts = new Map();
    let written = 0;
    const writeAll = async () => {
      while (written < batch.length) {
        // Requests waiting since the last part are answered before the next one.
        if (written > 0) await new Promise((resolve) => setTimeout(resolve, 0));
        const part = batch.slice(written, written + this.rowsPerWrite);
        await this.write(part);
        written += part.length;
      }
    };
    this.flushing = writeAll()
      .catch((err) => {
        // The parts not stored go back into the tally: the next flush tries them again.
        for (const c of batch.slice(written)) {
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
    const local = preparedStatementsFor(db) !== undefined;
    tally = new BadgeTally(
      (counts) => addBadgeFetches(db, counts),
      undefined,
      undefined,
      undefined,
      local ? LOCAL_ROWS_PER_WRITE : Number.POSITIVE_INFINITY,
    );
    tallies.set(db, tally);
  }
  return tally;
}
