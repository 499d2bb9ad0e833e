import type { MiddlewareHandler } from 'hono';
import type { AppDeps, AppEnv } from '../context';
import { ApiError } from '../lib/errors';

/** A counter per key and window; the edge can swap the in-memory one for a shared store. */
export interface RateLimitStore {
  /** Counts one hit for `key` in the window of `windowMs` and returns the count so far and when it resets. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetAt: number }> | { count: number; resetAt: number };
}

/** One endpoint's allowance: `limit` requests per `windowMs` per hashed IP. */
export interface RateLimitRule {
  name: string;
  limit: number;
  windowMs: number;
}

const MINUTE = 60_000;

/**
 * The public limits, per hashed IP and endpoint. Forms a person fills in get a few tries
 * an hour-ish; beacons and reads get room for a busy tab. Documented in README "API".
 */
export const RATE_LIMITS = {
  submissions: { name: 'submissions', limit: 5, windowMs: 10 * MINUTE },
  newsletter: { name: 'newsletter', limit: 5, windowMs: 10 * MINUTE },
  unsubscribe: { name: 'unsubscribe', limit: 20, windowMs: 10 * MINUTE },
  reports: { name: 'reports', limit: 10, windowMs: 10 * MINUTE },
  contact: { name: 'contact', limit: 5, windowMs: 10 * MINUTE },
  events: { name: 'events', limit: 240, windowMs: MINUTE },
  go: { name: 'go', limit: 60, windowMs: MINUTE },
  servers: { name: 'servers', limit: 240, windowMs: MINUTE },
} as const satisfies Record<string, RateLimitRule>;

/**
 * Fixed-window counters in a Map. Expired windows are swept when the map grows, so memory
 * stays bounded by the number of distinct visitors in one window.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {}

  hit(key: string, windowMs: number): { count: number; resetAt: number } {
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= t) {
      if (this.windows.size >= this.maxKeys) this.sweep(t);
      w = { count: 0, resetAt: t + windowMs };
      this.windows.set(key, w);
    }
    w.count++;
    return { count: w.count, resetAt: w.resetAt };
  }

  private sweep(t: number) {
    for (const [k, w] of this.windows) if (w.resetAt <= t) this.windows.delete(k);
    // Still full of live windows: start over rather than grow without bound.
    if (this.windows.size >= this.maxKeys) this.windows.clear();
  }
}

/** One store per app (tests build many apps in one process and must not share counters). */
const stores = new WeakMap<AppDeps, RateLimitStore>();

function storeFor(deps: AppDeps): RateLimitStore {
  if (deps.rateLimitStore) return deps.rateLimitStore;
  let store = stores.get(deps);
  if (!store) {
    store = new MemoryRateLimitStore();
    stores.set(deps, store);
  }
  return store;
}

const tooMany = (resetAt: number) =>
  new ApiError(429, 'rate_limited', 'Too many requests. Please wait a moment and try again.', undefined, {
    'Retry-After': String(Math.max(1, Math.ceil((resetAt - Date.now()) / 1000))),
  });

/**
 * Counts one request of the client `ipHash` against `rule`: 429 with Retry-After once it is past
 * the limit; nothing when RATE_LIMITS=false. Synchronous with the in-memory store (no promise
 * per request on the hot paths), a promise with a shared store.
 */
export function countRequest(deps: AppDeps, rule: RateLimitRule, ipHash: string): void | Promise<void> {
  if (!deps.env.RATE_LIMITS) return;
  const hit = storeFor(deps).hit(`${rule.name}:${ipHash}`, rule.windowMs);
  if (hit instanceof Promise) {
    return hit.then(({ count, resetAt }) => {
      if (count > rule.limit) throw tooMany(resetAt);
    });
  }
  if (hit.count > rule.limit) throw tooMany(hit.resetAt);
}

/** `countRequest` as middleware, for routes under the admin tree (whose middleware sets deps and ipHash). */
export function rateLimit(rule: RateLimitRule): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await countRequest(c.get('deps'), rule, c.get('ipHash'));
    await next();
  };
}
