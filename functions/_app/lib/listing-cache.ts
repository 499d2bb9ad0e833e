/** Keeps background work alive past the response that started it (a Worker's `ctx.waitUntil`). */
export type WaitUntil = (work: Promise<unknown>) => void;

/**
 * A small read-through cache for public listing answers: fresh for `freshMs`, then served stale
 * for up to `staleMs` while one background refresh runs; concurrent misses of one key share a
 * single query. It holds what the CDN may hold anyway (the answers say max-age=30).
 *
 * On a Worker a promise dies with the request that created it unless it is handed to
 * `waitUntil`: the background refresh is, and a refresh that never settles (its request gone, or
 * handed to nobody) is forgotten after `loadTimeoutMs`, so no key waits on it for good.
 */
export class ListingCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  private readonly inflight = new Map<string, { promise: Promise<V>; since: number }>();

  constructor(
    private readonly freshMs = 2_000,
    private readonly staleMs = 30_000,
    private readonly maxEntries = 500,
    private readonly now: () => number = Date.now,
    private readonly loadTimeoutMs = 10_000,
  ) {}

  /**
   * The cached value for `key`, loading it (once, however many callers wait) when missing or too
   * old. `waitUntil` keeps a stale entry's background refresh alive past this request (Workers).
   */
  async get(key: string, load: () => Promise<V>, waitUntil?: WaitUntil): Promise<V> {
    const hit = this.entries.get(key);
    const age = hit ? this.now() - hit.at : Number.POSITIVE_INFINITY;
    if (hit && age <= this.freshMs) return hit.value;
    if (hit && age <= this.staleMs) {
      // Stale: answer now, refresh behind; a failed refresh keeps the old value until it expires.
      const refresh = this.refresh(key, load).catch(() => undefined);
      waitUntil?.(refresh);
      return hit.value;
    }
    return this.refresh(key, load);
  }

  private refresh(key: string, load: () => Promise<V>): Promise<V> {
    const running = this.inflight.get(key);
    if (running && this.now() - running.since <= this.loadTimeoutMs) return running.promise;
    const since = this.now();
    const promise = load().then(
      (value) => {
        if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
          // Drop the oldest insertion (Map keeps insertion order).
          const oldest = this.entries.keys().next().value;
          if (oldest !== undefined) this.entries.delete(oldest);
        }
        this.entries.delete(key);
        this.entries.set(key, { value, at: this.now() });
        this.settle(key, promise);
        return value;
      },
      (err: unknown) => {
        this.settle(key, promise);
        throw err;
      },
    );
    this.inflight.set(key, { promise, since });
    return promise;
  }

  /** Forgets `key`'s load once it settles, unless a newer one has replaced it. */
  private settle(key: string, promise: Promise<V>): void {
    if (this.inflight.get(key)?.promise === promise) this.inflight.delete(key);
  }
}
