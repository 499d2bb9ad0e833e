/**
 * A small read-through cache for public listing answers: fresh for `freshMs`, then served stale
 * for up to `staleMs` while one background refresh runs; concurrent misses of one key share a
 * single query. It holds what the CDN may hold anyway (the answers say max-age=30).
 */
export class ListingCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  private readonly inflight = new Map<string, Promise<V>>();

  constructor(
    private readonly freshMs = 2_000,
    private readonly staleMs = 30_000,
    private readonly maxEntries = 500,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached value for `key`, loading it (once, however many callers wait) when missing or too old. */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    const age = hit ? this.now() - hit.at : Number.POSITIVE_INFINITY;
    if (hit && age <= this.freshMs) return hit.value;
    if (hit && age <= this.staleMs) {
      // Stale: answer now, refresh behind; a failed refresh keeps the old value until it expires.
      this.refresh(key, load).catch(() => {});
      return hit.value;
    }
    return this.refresh(key, load);
  }

  private refresh(key: string, load: () => Promise<V>): Promise<V> {
    const running = this.inflight.get(key);
    if (running) return running;
    const p = load()
      .then((value) => {
        if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
          // Drop the oldest insertion (Map keeps insertion order).
          const oldest = this.entries.keys().next().value;
          if (oldest !== undefined) this.entries.delete(oldest);
        }
        this.entries.delete(key);
        this.entries.set(key, { value, at: this.now() });
        return value;
      })
      .finally(() => this.inflight.delete(key));
    this.inflight.set(key, p);
    return p;
  }
}
