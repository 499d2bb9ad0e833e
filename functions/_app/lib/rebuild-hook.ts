import type { SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import {
  listUncalledSiteChanges,
  markHookCalled,
  recordSiteChange,
  siteChangeInserts,
} from '../../../db/queries/site-changes';
import type { ChangeScope, PreparedChange, RebuildStatus, RebuildTrigger } from '../context';

/** A recorded change older than this whose hook call has not succeeded is called again (retryFailed). */
export const HOOK_RETRY_AFTER_MS = 60_000;

/** Where and how the production rebuild trigger calls the deploy hook. */
export interface HookRebuildOptions {
  /**
   * The deploy hook to POST to: a CI trigger URL (`{"reason"}`), or GitHub's repository dispatch
   * endpoint (`https://api.github.com/repos/{owner}/{repo}/dispatches`), which is sent the event
   * the deploy workflow listens for (.github/workflows/deploy.yml).
   */
  url: string;
  /** Sent as `Authorization: Bearer …` (REBUILD_HOOK_TOKEN): GitHub's endpoint needs a token. */
  token?: string | undefined;
  /** Replaces global fetch (tests). */
  fetch?: typeof fetch | undefined;
  /** Quiet period that merges a burst of requests into one POST. */
  debounceMs?: number;
  log?: (line: string) => void;
  /**
   * Where each change is recorded (site_changes) until the deploy job has deployed it (the job reads
   * the rows, publishes what they name and clears them: scripts/deploy.ts). A successful call marks
   * the rows it covers; a change whose call failed, or whose isolate slept before calling, is called
   * again by `retryFailed`.
   */
  db?: Db | undefined;
  /** The clock (ms since the epoch); tests step it. */
  now?: (() => number) | undefined;
}

/**
 * Production rebuilds: a POST to REBUILD_HOOK_URL, coalesced so a burst of approvals
 * gives one POST. The hosting platform builds and deploys; from here the state goes
 * queued -> building (while the POST is in flight) -> idle, or failed with the error.
 * Coalescing is per process (per isolate on Workers, where the edge entry should keep
 * `flush()` alive with waitUntil). With `db`, every change is recorded with its pages and scope for
 * the deploy job, which clears it once deployed; a successful call marks what it covered, and the
 * Worker's scheduled handler calls `retryFailed` to send what no successful call covered.
 */
export class HookRebuildTrigger implements RebuildTrigger {
  #state: RebuildStatus = { state: 'idle', liveSince: null, lastDurationMs: null, lastError: null, lastReason: null };
  #pending: string[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;
  #inFlight: Promise<void> | null = null;

  constructor(private readonly options: HookRebuildOptions) {}

  #now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** Queues a POST for `reason`; resolves once the change is recorded (at once without `db`). */
  request(reason: string, pages?: readonly string[], scope?: ChangeScope): Promise<void> {
    const db = this.options.db;
    const recorded = db ? recordSiteChange(db, { reason, pages, at: this.#now(), scope }) : Promise.resolve();
    this.#queue(reason);
    return recorded;
  }

  /** `request` for the caller's batch: its record's rows (when this trigger records), then the queued call. */
  prepare(db: Db, reason: string, pages: readonly string[], scope?: ChangeScope, when?: SQL): PreparedChange {
    return {
      statements: this.options.db ? siteChangeInserts(db, { reason, pages, at: this.#now(), scope }, when) : [],
      requested: () => this.#queue(reason),
    };
  }

  /**
   * Calls the hook again for the recorded changes older than HOOK_RETRY_AFTER_MS that no successful
   * call has covered (a failed call, an isolate that slept first); answers how many there were.
   */
  async retryFailed(now = this.#now()): Promise<number> {
    if (!this.options.db) return 0;
    const stuck = await listUncalledSiteChanges(this.options.db, now - HOOK_RETRY_AFTER_MS);
    if (stuck.length === 0) return 0;
    this.options.log?.(`Deploy hook: calling again for ${stuck.length} change(s) not yet built`);
    this.#pending.push(`retry: ${[...new Set(stuck.map((c) => c.reason))].join(', ')}`);
    await this.flush();
    return stuck.length;
  }

  #queue(reason: string): void {
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
    const calledAt = this.#now();
    this.#state = { ...this.#state, state: 'building', lastReason: reason };
    const doFetch = this.options.fetch ?? fetch;
    try {
      const res = await doFetch(this.options.url, {
        method: 'POST',
        ...hookRequest(this.options.url, reason, this.options.token),
        signal: AbortSignal.timeout(15_000),
      });
      if (!res.ok) throw new Error(`Deploy hook answered ${res.status} ${res.statusText}`.trim());
      // The job the hook starts reads the database after this call: it sees every change recorded
      // before it, and clears those rows once it has deployed them. Marked, not cleared: a job that
      // fails leaves them for the next deploy, and retryFailed calls only for what no call covered.
      if (this.options.db) await markHookCalled(this.options.db, calledAt);
      this.#state = {
        // A request made during the call is still to send: queued, not idle.
        state: this.#pending.length > 0 || this.#timer !== null ? 'queued' : 'idle',
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

/** GitHub's "create a repository dispatch event" endpoint. */
const GITHUB_DISPATCH = /^https:\/\/api\.github\.com\/repos\/[^/]+\/[^/]+\/dispatches$/;

/** The event type .github/workflows/deploy.yml runs on (`repository_dispatch: types: [rebuild]`). */
export const DISPATCH_EVENT_TYPE = 'rebuild';

/**
 * The headers and body of a deploy-hook call: `{"reason"}` for a CI trigger URL; for GitHub's
 * repository dispatch endpoint its documented shape (`event_type`, the reason in `client_payload`),
 * with the API's media type and the User-Agent GitHub requires of every request.
 */
export function hookRequest(
  url: string,
  reason: string,
  token: string | undefined,
): { headers: Record<string, string>; body: string } {
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (GITHUB_DISPATCH.test(url)) {
    return {
      headers: {
        'content-type': 'application/json',
        accept: 'application/vnd.github+json',
        'user-agent': 'guildrank-deploy-hook',
        ...auth,
      },
      // client_payload values are GitHub's; a reason past 1,000 characters is cut (a burst's reasons are joined).
      body: JSON.stringify({ event_type: DISPATCH_EVENT_TYPE, client_payload: { reason: reason.slice(0, 1000) } }),
    };
  }
  return { headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify({ reason }) };
}
