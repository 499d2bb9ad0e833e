// How long the directory stops asking Discord after an answer that says "stop": pure, so the
// refresh job, the submission checks and their tests share one rule. Whatever figure an upstream
// names is clamped here: Discord's own 429 never holds lookups for more than a few minutes, a
// global 429 and a block page follow the ladders below, and nothing waits longer than a day.
import type { InviteAnswer } from './classify';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * The longest a route's (non-global) 429 holds lookups, whatever its retry_after: Discord's
 * per-route buckets reset within seconds (docs: "Rate Limits"), so more than this is a bad figure.
 */
export const MAX_RATE_LIMIT_WAIT_MS = 5 * MINUTE;

/**
 * A global 429 (`global: true` or X-RateLimit-Scope: global): 1 min, then 10 min, then 1 h while
 * they keep coming (the 50 requests per second global limit resets within a second, so a second
 * one in a row means the site is being throttled as a whole).
 */
export const GLOBAL_LADDER_MS = [1 * MINUTE, 10 * MINUTE, 1 * HOUR] as const;

/**
 * A block page (Cloudflare's 1015 and kin) or Discord's temporary IP ban: 1 h, then 6 h, then 24 h
 * while they keep coming (Discord: an IP past 10,000 invalid requests in 10 minutes is banned for
 * about an hour; one report saw a 24 h ban, discord-api-docs#7145).
 */
export const BLOCK_LADDER_MS = [1 * HOUR, 6 * HOUR, 24 * HOUR] as const;

/** An auth error needs a person (a new token): look again in a day. */
export const AUTH_BLOCK_MS = 24 * HOUR;

/** No upstream figure is taken beyond this (classifyInviteAnswer clamps every one to it). */
export const MAX_UPSTREAM_WAIT_MS = 24 * HOUR;

/** The longest Retry-After a visitor is told: a person retries by hand, the console says more. */
export const MAX_VISITOR_RETRY_AFTER_S = 60 * 60;

/** What the breaker does after an answer: hold lookups `ms`, at ladder `level`. */
export interface Hold {
  ms: number;
  reason: string;
  level: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * The hold an answer trips at ladder `level` (0 after Discord last answered normally), or null when
 * the answer says nothing of stopping. Upstream figures only ever shorten nothing: a 429's
 * retry_after is kept within [1 s, MAX_RATE_LIMIT_WAIT_MS]; a global 429 waits at least its
 * ladder's step; a block page waits exactly its ladder's step.
 */
export function holdFor(answer: InviteAnswer, level: number): Hold | null {
  const step = (ladder: readonly number[]) => Math.min(level + 1, ladder.length);
  switch (answer.kind) {
    case 'rate_limited': {
      const wait = clamp(
        Number.isFinite(answer.retryAfterMs) ? answer.retryAfterMs : 0,
        SECOND,
        MAX_RATE_LIMIT_WAIT_MS,
      );
      const scope = answer.global ? 'global' : answer.scope;
      const reason = `rate_limited${scope ? ` (${scope})` : ''}`;
      if (!answer.global && answer.scope !== 'global') return { ms: wait, reason, level };
      const next = step(GLOBAL_LADDER_MS);
      return { ms: Math.max(wait, GLOBAL_LADDER_MS[next - 1]!), reason, level: next };
    }
    case 'blocked': {
      const next = step(BLOCK_LADDER_MS);
      return { ms: BLOCK_LADDER_MS[next - 1]!, reason: `blocked (${answer.source} ${answer.status})`, level: next };
    }
    case 'auth_error':
      return { ms: AUTH_BLOCK_MS, reason: `auth_error (${answer.status})`, level };
    default:
      return null;
  }
}

/** An upstream's wait in seconds (a header or a JSON figure) as ms, clamped to [0, MAX_UPSTREAM_WAIT_MS]. */
export function upstreamWaitMs(seconds: number): number {
  if (!Number.isFinite(seconds) || seconds <= 0) return 0;
  return Math.min(MAX_UPSTREAM_WAIT_MS, Math.ceil(seconds * 1000));
}

/** The Retry-After (whole seconds) a visitor is told for a wait of `ms`: at least 1, at most MAX_VISITOR_RETRY_AFTER_S. */
export function visitorRetryAfter(ms: number | null | undefined, fallbackMs = 30 * SECOND): number {
  const wait = typeof ms === 'number' && Number.isFinite(ms) ? ms : fallbackMs;
  return clamp(Math.ceil(wait / 1000), 1, MAX_VISITOR_RETRY_AFTER_S);
}
