import { isDbUnavailable } from './errors';

/**
 * Group commit: concurrent requests' inserts are gathered for a short window and written as one
 * multi-row statement, so a burst pays for one commit instead of hundreds. The window is one
 * event-loop turn, extended turn by turn (up to `maxTurns`) while rows keep arriving: under load
 * the clients whose requests are still being parsed join the same commit, and a quiet turn (or
 * `maxRows`) closes it, so a lone request waits one turn as before. Each caller still awaits its
 * own rows being stored (a 2xx always means stored). If the shared write fails, every caller's
 * rows are retried alone, so one bad row fails only its request; if it failed because the
 * database is unavailable (locked, unreachable), every caller fails with it at once, since each
 * retry alone would wait out the same lock again, one after the other. One write is in flight at
 * a time: callers that arrive meanwhile are written together once it ends.
 */
export class GroupCommit<Row, Out> {
  private queue: { rows: Row[]; resolve: (out: Out[]) => void; reject: (err: unknown) => void }[] = [];
  private queuedRows = 0;
  private scheduled = false;
  /** Callers queued when the window last looked, and how many turns it has been open. */
  private seen = 0;
  private turns = 0;
  /** A write is in flight; `held`: a window closed meanwhile, its callers wait for the next write. */
  private writing = false;
  private held = false;

  constructor(
    /** Writes rows, answering one output per row in the same order. */
    private readonly write: (rows: Row[]) => Promise<Out[]>,
    /** Largest number of rows per shared write (SQLite's bound-parameter limit). */
    private readonly maxRows = 500,
    /** Opens a window: runs its argument on the next turn. */
    private readonly defer: (fn: () => void) => void = deferDefault,
    /** Most turns one window stays open while rows keep arriving (1: a single turn). */
    private readonly maxTurns = 1,
  ) {}

  /** Queues rows for the next shared write; resolves with their outputs once stored. */
  add(rows: Row[]): Promise<Out[]> {
    if (rows.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({ rows, resolve, reject });
      this.queuedRows += rows.length;
      if (!this.scheduled) {
        this.scheduled = true;
        this.seen = this.queue.length;
        this.turns = 0;
        this.defer(this.tick);
      }
    });
  }

  /** The end of a turn of the window: wait one more while callers keep arriving, else write. */
  private readonly tick = (): void => {
    const grew = this.queue.length > this.seen;
    if (grew && this.queuedRows < this.maxRows && ++this.turns < this.maxTurns) {
      this.seen = this.queue.length;
      this.defer(this.tick);
      return;
    }
    // One write at a time: while one is in flight (on a write thread, or a remote database),
    // callers keep joining the queue, and the write that ends takes them all in the next one.
    if (this.writing) {
      this.held = true;
      return;
    }
    void this.flush();
  };

  private async flush(): Promise<void> {
    this.writing = true;
    try {
      await this.flushQueue();
    } finally {
      this.writing = false;
    }
    if (this.held) {
      this.held = false;
      void this.flush();
    }
  }

  private async flushQueue(): Promise<void> {
    this.scheduled = false;
    const jobs = this.queue;
    this.queue = [];
    this.queuedRows = 0;
    // Split into groups of at most maxRows rows, never splitting one caller's rows.
    const groups: (typeof jobs)[] = [];
    let group: typeof jobs = [];
    let size = 0;
    for (const job of jobs) {
      if (size + job.rows.length > this.maxRows && group.length) {
        groups.push(group);
        group = [];
        size = 0;
      }
      group.push(job);
      size += job.rows.length;
    }
    if (group.length) groups.push(group);
    for (const g of groups) await this.writeGroup(g);
  }

  private async writeGroup(jobs: typeof this.queue): Promise<void> {
    if (jobs.length === 1) {
      const job = jobs[0]!;
      await this.write(job.rows).then(job.resolve, job.reject);
      return;
    }
    let out: Out[];
    try {
      out = await this.write(jobs.flatMap((j) => j.rows));
    } catch (err) {
      if (isDbUnavailable(err)) {
        for (const job of jobs) job.reject(err);
        return;
      }
      for (const job of jobs) await this.write(job.rows).then(job.resolve, job.reject);
      return;
    }
    let at = 0;
    for (const job of jobs) {
      job.resolve(out.slice(at, at + job.rows.length));
      at += job.rows.length;
    }
  }
}

/** The next turn of the event loop on Node; a zero timer elsewhere. */
function deferDefault(fn: () => void): void {
  if (typeof setImmediate === 'function') setImmediate(fn);
  else setTimeout(fn, 0);
}

/**
 * Whether this runtime may share one write between requests. Node may; Cloudflare Workers
 * must not resolve one request's promise from another request's I/O.
 */
export const canGroupCommit = (): boolean =>
  (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent !== 'Cloudflare-Workers';
