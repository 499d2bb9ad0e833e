import type { RebuildStatus, RebuildTrigger } from '../context';

/** Where and how the production rebuild trigger calls the deploy hook. */
export interface HookRebuildOptions {
  /** The deploy hook (e.g. a Cloudflare Pages deploy hook) to POST to. */
  url: string;
  /** Replaces global fetch (tests). */
  fetch?: typeof fetch | undefined;
  /** Quiet period that merges a burst of requests into one POST. */
  debounceMs?: number;
  log?: (line: string) => void;
}

/**
 * Production rebuilds: a POST to REBUILD_HOOK_URL, coalesced so a burst of approvals
 * gives one POST. The hosting platform builds and deploys; from here the state goes
 * queued -> building (while the POST is in flight) -> idle, or failed with the error.
 * Coalescing is per process (per isolate on Workers, where the edge entry should keep
 * `flush()` alive with waitUntil).
 */
export class HookRebuildTrigger implements RebuildTrigger {
  #state: RebuildStatus = { state: 'idle', liveSince: null, lastDurationMs: null, lastError: null, lastReason: null };
  #pending: string[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;
  #inFlight: Promise<void> | null = null;

  constructor(private readonly options: HookRebuildOptions) {}

  request(reason: string): void {
    this.#pending.push(reason);
    if (this.#state.state !== 'building') this.#state = { ...this.#state, state: 'queued' };
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.flush();
    }, this.options.debounceMs ?? 2000);
  }

  status(): RebuildStatus {
    return { ...this.#state };
  }

  /** Sends what is queued now (one POST for all of it) and resolves when nothing is left to send. */
  async flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    while (this.#inFlight) await this.#inFlight;
    if (this.#pending.length === 0) return;
    const reasons = this.#pending.splice(0);
    this.#inFlight = this.#post(reasons.join(', '));
    try {
      await this.#inFlight;
    } finally {
      this.#inFlight = null;
    }
    // Requests that arrived during the POST get their own (single) POST.
    if (this.#pending.length > 0 && !this.#timer) await this.flush();
  }

  async #post(reason: string): Promise<void> {
    const started = Date.now();
    this.#state = { ...this.#state, state: 'building', lastReason: reason };
    const doFetch = this.options.fetch ?? fetch;
    try {
      const res = await doFetch(this.options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ reason }),
        signal: AbortSignal.timeout(15_000),
      });
      if (!res.ok) throw new Error(`Deploy hook answered ${res.status} ${res.statusText}`.trim());
      this.#state = {
        state: 'idle',
        liveSince: new Date().toISOString(),
        lastDurationMs: Date.now() - started,
        lastError: null,
        lastReason: reason,
      };
      this.options.log?.(`Deploy hook called (${reason})`);
    } catch (err) {
      this.#state = {
        ...this.#state,
        state: 'failed',
        lastDurationMs: Date.now() - started,
        lastError: err instanceof Error ? err.message : String(err),
      };
      this.options.log?.(`Deploy hook failed: ${this.#state.lastError}`);
    }
  }
}
