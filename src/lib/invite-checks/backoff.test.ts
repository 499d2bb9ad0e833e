import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BLOCK_LADDER_MS,
  GLOBAL_LADDER_MS,
  holdFor,
  MAX_RATE_LIMIT_WAIT_MS,
  MAX_UPSTREAM_WAIT_MS,
  MAX_VISITOR_RETRY_AFTER_S,
  upstreamWaitMs,
  visitorRetryAfter,
} from './backoff';

const level = fc.integer({ min: 0, max: 5 });
const seconds = fc.oneof(fc.double({ min: 0, max: 1e12, noNaN: true }), fc.constant(999_999_999));

describe('holdFor: no upstream figure is taken unclamped', () => {
  it("a route's 429 holds between 1 s and 5 minutes, whatever retry_after says", () => {
    fc.assert(
      fc.property(seconds, level, (s, l) => {
        const hold = holdFor(
          { kind: 'rate_limited', retryAfterMs: upstreamWaitMs(s), global: false, scope: 'user', rateLimit: null },
          l,
        )!;
        expect(hold.ms).toBeGreaterThanOrEqual(1000);
        expect(hold.ms).toBeLessThanOrEqual(MAX_RATE_LIMIT_WAIT_MS);
        expect(hold.level).toBe(l);
      }),
    );
  });
  it('a global 429 and a block page follow their ladders, never past the last step', () => {
    fc.assert(
      fc.property(seconds, level, (s, l) => {
        const global = holdFor(
          { kind: 'rate_limited', retryAfterMs: upstreamWaitMs(s), global: true, scope: 'global', rateLimit: null },
          l,
        )!;
        expect(global.ms).toBeLessThanOrEqual(GLOBAL_LADDER_MS.at(-1)!);
        expect(global.ms).toBeGreaterThanOrEqual(GLOBAL_LADDER_MS[Math.min(l, GLOBAL_LADDER_MS.length - 1)]!);
        const block = holdFor(
          { kind: 'blocked', source: 'cloudflare', status: 429, retryAfterMs: upstreamWaitMs(s), rateLimit: null },
          l,
        )!;
        expect(block.ms).toBe(BLOCK_LADDER_MS[Math.min(l, BLOCK_LADDER_MS.length - 1)]);
      }),
    );
  });
  it('a definitive answer holds nothing', () => {
    expect(holdFor({ kind: 'unknown_invite', code: 10006, rateLimit: null }, 2)).toBeNull();
  });
  it('upstream figures and visitor Retry-After stay within their bounds', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: false }), (s) => {
        const ms = upstreamWaitMs(s);
        expect(ms).toBeGreaterThanOrEqual(0);
        expect(ms).toBeLessThanOrEqual(MAX_UPSTREAM_WAIT_MS);
        const after = visitorRetryAfter(s * 1000);
        expect(after).toBeGreaterThanOrEqual(1);
        expect(after).toBeLessThanOrEqual(MAX_VISITOR_RETRY_AFTER_S);
      }),
    );
  });
});
