// The public limits per client (RATE_LIMITS) and where they are counted: in memory on Node, the
// Workers Rate Limiting bindings on Cloudflare. The route middleware is middleware/rate-limit.ts.
import type { AppDeps } from '../context';
import { ApiError } from './errors';

/** One endpoint's allowance: `limit` requests per `windowMs` per hashed IP. */
export interface RateLimitRule {
  name: string;
  limit: number;
  windowMs: number;
  /** The namespace_id of the rule's Cloudflare binding: an integer unique in the account, never reused. */
  namespaceId: number;
}

/** A store's verdict on one request. */
export interface RateLimitOutcome {
  /** False once the key is past the rule's limit. */
  ok: boolean;
  /** When the client may try again (ms since epoch). */
  resetAt: number;
  /** Requests left in the window, when the store knows (the memory store does; a Cloudflare binding says only yes or no). */
  remaining?: number | undefined;
}

/** Counts requests per rule and key: in memory on Node, the platform's bindings on Cloudflare. */
export interface RateLimitStore {
  /** Counts one request of `key` (a hashed IP) against `rule`. */
  hit(rule: RateLimitRule, key: string): RateLimitOutcome | Promise<RateLimitOutcome>;
}

const MINUTE = 60_000;

/**
 * The public limits, per hashed IP and endpoint: the one table both runtimes read (the memory
 * store directly, wrangler.toml's `[[ratelimits]]` through `edgeRateLimit`, checked by a test).
 * Forms a person fills in get a few tries an hour-ish; beacons and reads get room for a busy
 * tab. Documented in README "API".
 */
export const RATE_LIMITS = {
  submissions: { name: 'submissions', limit: 5, windowMs: 10 * MINUTE, namespaceId: 1001 },
  newsletter: { name: 'newsletter', limit: 5, windowMs: 10 * MINUTE, namespaceId: 1002 },
  unsubscribe: { name: 'unsubscribe', limit: 20, windowMs: 10 * MINUTE, namespaceId: 1003 },
  reports: { name: 'reports', limit: 10, windowMs: 10 * MINUTE, namespaceId: 1004 },
  contact: { name: 'contact', limit: 5, windowMs: 10 * MINUTE, namespaceId: 1005 },
  events: { name: 'events', limit: 240, windowMs: MINUTE, namespaceId: 1006 },
  go: { name: 'go', limit: 60, windowMs: MINUTE, namespaceId: 1007 },
  servers: { name: 'servers', limit: 240, windowMs: MINUTE, namespaceId: 1008 },
  /** The submit form's live invite check: each lookup spends Discord's budget, shared by the whole site. */
  invites: { name: 'invites', limit: 20, windowMs: MINUTE, namespaceId: 1009 },
  /**
   * Owner sign-in with Discord (#17): its start and Discord's redirect back count alike, so 20 is
   * ten sign-ins; each one asks Discord's OAuth endpoints, whose limits are the site's.
   */
  ownerSignIn: { name: 'owner_sign_in', limit: 20, windowMs: 10 * MINUTE, namespaceId: 1010 },
  /**
   * Pages rendered on request (not cached, not prerendered: lib/render-gate.ts): a reader or a
   * crawler opens a page every half second at most; cached and prerendered pages are not counted.
   */
  renders: { name: 'renders', limit: 120, windowMs: MINUTE, namespaceId: 1011 },
  /** The public read API (#33, /api/v1): a script's steady reads; answers carry RateLimit headers. */
  publicApi: { name: 'public_api', limit: 120, windowMs: MINUTE, namespaceId: 1012 },
  /**
   * Badges and embedded cards (#33): other sites' pages load them, behind image proxies that share
   * an address (GitHub's camo), so the room is wide; their answers are cached for 10 minutes.
   */
  badges: { name: 'badges', limit: 600, windowMs: MINUTE, namespaceId: 1013 },
  /**
   * Where a checkout stands (/account/paid asks once on return from Stripe): each answer for an open
   * order reads Stripe's session, and Stripe's API limits are the site's, shared with every checkout.
   */
  checkoutStatus: { name: 'checkout_status', limit: 30, windowMs: 10 * MINUTE, namespaceId: 1014 },
} as const satisfies Record<string, RateLimitRule>;

interface Window {
  count: number;
  resetAt: number;
  limit: number;
}

/**
 * Fixed-window counters in a Map, bounded by `maxKeys`. When full it frees a tenth of the room:
 * expired windows first, then the oldest windows still under their limit (Map order is creation
 * order: a renewed window moves to the back). A window at its limit goes only when nothing else
 * is left, so traffic from many other addresses cannot reset a client that is being refused.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {}

  /** How many windows it holds (for tests of the bound). */
  get size(): number {
    return this.windows.size;
  }

  hit(rule: RateLimitRule, key: string): RateLimitOutcome {
    const t = this.now();
    const k = `${rule.name}:${key}`;
    let w = this.windows.get(k);
    if (!w || w.resetAt <= t) {
      if (w) this.windows.delete(k);
      else if (this.windows.size >= this.maxKeys) this.evict(t);
      w = { count: 0, resetAt: t + rule.windowMs, limit: rule.limit };
      this.windows.set(k, w);
    }
    w.count++;
    return { ok: w.count <= rule.limit, resetAt: w.resetAt, remaining: Math.max(0, rule.limit - w.count) };
  }

  private evict(t: number) {
    // A batch at a time, so a store full of live windows is not scanned on every new key.
    const target = this.maxKeys - Math.max(1, Math.floor(this.maxKeys / 10));
    for (const [k, w] of this.windows) if (w.resetAt <= t) this.windows.delete(k);
    if (this.windows.size <= target) return;
    for (const [k, w] of this.windows) {
      if (w.count >= w.limit) continue;
      this.windows.delete(k);
      if (this.windows.size <= target) return;
    }
    // Every window is at its limit: memory stays bounded, the oldest go.
    for (const k of this.windows.keys()) {
      this.windows.delete(k);
      if (this.windows.size <= target) return;
    }
  }
}

/** The Workers Rate Limiting binding (a `[[ratelimits]]` entry of wrangler.toml). */
export interface RateLimitBinding {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

/** A rule as a Cloudflare binding: its name in the Worker's env and its `simple` settings. */
export interface EdgeRateLimit {
  binding: string;
  namespaceId: number;
  limit: number;
  period: 10 | 60;
}

/**
 * How a rule maps onto a binding, whose period can only be 10 or 60 seconds. A one-minute rule
 * maps exactly. A longer window (the forms' 10 minutes) keeps its limit per minute: the same
 * burst a person gets, never refusing what the rule would let through at once, but the
 * sustained rate allowed grows by window / 60 s. A shorter window is scaled up to the period.
 */
export function edgeRateLimit(rule: RateLimitRule): EdgeRateLimit {
  const period = rule.windowMs <= 10_000 ? 10 : 60;
  const periodMs = period * 1000;
  const limit = rule.windowMs >= periodMs ? rule.limit : Math.floor((rule.limit * periodMs) / rule.windowMs);
  return { binding: `RATE_LIMIT_${rule.name.toUpperCase()}`, namespaceId: rule.namespaceId, limit, period };
}

/**
 * Counts through the Worker's Rate Limiting bindings, one per rule; a rule whose binding is
 * missing counts in isolate memory instead (`missing` names them, for a warning at start).
 * The binding says only yes or no, so a refusal's Retry-After is the whole period.
 */
export class BindingRateLimitStore implements RateLimitStore {
  private readonly bindings = new Map<string, { binding: RateLimitBinding; periodMs: number }>();
  /** The rules of RATE_LIMITS without a binding in the env. */
  readonly missing: string[] = [];
  private readonly fallback: MemoryRateLimitStore;

  constructor(
    env: Record<string, unknown>,
    private readonly now: () => number = Date.now,
  ) {
    this.fallback = new MemoryRateLimitStore(now);
    for (const rule of Object.values(RATE_LIMITS)) {
      const edge = edgeRateLimit(rule);
      const binding = env[edge.binding];
      if (isBinding(binding)) this.bindings.set(rule.name, { binding, periodMs: edge.period * 1000 });
      else this.missing.push(edge.binding);
    }
  }

  hit(rule: RateLimitRule, key: string): RateLimitOutcome | Promise<RateLimitOutcome> {
    const entry = this.bindings.get(rule.name);
    if (!entry) return this.fallback.hit(rule, key);
    return entry.binding.limit({ key }).then(({ success }) => ({ ok: success, resetAt: this.now() + entry.periodMs }));
  }
}

const isBinding = (value: unknown): value is RateLimitBinding =>
  typeof value === 'object' && value !== null && typeof (value as { limit?: unknown }).limit === 'function';

/** One store per app (tests build many apps in one process and must not share counters). */
const stores = new WeakMap<AppDeps, RateLimitStore>();

/** The app's rate-limit store: the one passed in (the Worker's bindings), else one in memory per app. */
export function storeFor(deps: AppDeps): RateLimitStore {
  if (deps.rateLimitStore) return deps.rateLimitStore;
  let store = stores.get(deps);
  if (!store) {
    store = new MemoryRateLimitStore();
    stores.set(deps, store);
  }
  return store;
}

/** The 429 of a spent limit, with Retry-After (and any headers the route adds). */
export const tooMany = (resetAt: number, headers: Record<string, string> = {}) =>
  new ApiError(429, 'rate_limited', 'Too many requests. Please wait a moment and try again.', undefined, {
    'Retry-After': String(Math.max(1, Math.ceil((resetAt - Date.now()) / 1000))),
    ...headers,
  });

/**
 * The RateLimit-Policy and RateLimit headers of an answer (IETF draft-ietf-httpapi-ratelimit-headers:
 * `"public_api";q=120;w=60` and `"public_api";r=87;t=42`). RateLimit needs the requests left,
 * which only the memory store knows: with the Cloudflare binding only the policy is sent.
 */
export function rateLimitHeaders(
  rule: RateLimitRule,
  outcome: RateLimitOutcome,
  now = Date.now(),
): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Policy': `"${rule.name}";q=${rule.limit};w=${Math.round(rule.windowMs / 1000)}`,
  };
  if (outcome.remaining !== undefined) {
    const reset = Math.max(0, Math.ceil((outcome.resetAt - now) / 1000));
    headers.RateLimit = `"${rule.name}";r=${outcome.remaining};t=${reset}`;
  }
  return headers;
}

/**
 * Counts one request of the client `ipHash` against `rule`: 429 with Retry-After once it is past
 * the limit; nothing when RATE_LIMITS=false (the console sign-in throttle is not one of these:
 * lib/sign-in-throttle.ts). Synchronous with the in-memory store, a promise with the bindings.
 */
export function countRequest(deps: AppDeps, rule: RateLimitRule, ipHash: string): void | Promise<void> {
  if (!deps.env.RATE_LIMITS) return;
  const outcome = storeFor(deps).hit(rule, ipHash);
  if (outcome instanceof Promise) {
    return outcome.then(({ ok, resetAt }) => {
      if (!ok) throw tooMany(resetAt);
    });
  }
  if (!outcome.ok) throw tooMany(outcome.resetAt);
}
