// wrangler.toml's [[ratelimits]] are derived from the app's one rule table (RATE_LIMITS):
// this fails, printing the entries to paste, when either side changes without the other.
import { describe, expect, it } from 'vitest';
import { edgeRateLimit, RATE_LIMITS } from '../../functions/_app/lib/rate-limits';
import { type DeclaredRateLimit, declaredRateLimits, rateLimitsToml } from '../helpers/wrangler-config';

/** The entries RATE_LIMITS asks for, as wrangler reads them. */
const expected: DeclaredRateLimit[] = Object.values(RATE_LIMITS).map((rule) => {
  const edge = edgeRateLimit(rule);
  return {
    name: edge.binding,
    namespace_id: String(edge.namespaceId),
    simple: { limit: edge.limit, period: edge.period },
  };
});

describe('Cloudflare rate-limit bindings', () => {
  it("wrangler.toml declares exactly one binding per rule of RATE_LIMITS, with the rule's mapped limit and period", async () => {
    const declared = await declaredRateLimits();
    expect(declared, `wrangler.toml's [[ratelimits]] should read:\n\n${rateLimitsToml(expected)}\n`).toEqual(expected);
  });

  it('every rule maps to a period the platform accepts, a positive limit and its own namespace', () => {
    for (const e of expected) {
      expect([10, 60]).toContain(e.simple.period);
      expect(e.simple.limit).toBeGreaterThan(0);
    }
    expect(new Set(expected.map((e) => e.namespace_id)).size).toBe(expected.length);
    expect(new Set(expected.map((e) => e.name)).size).toBe(expected.length);
  });

  it('a one-minute rule maps exactly; a ten-minute rule keeps its limit per minute; a short window scales up', () => {
    expect(edgeRateLimit(RATE_LIMITS.go)).toEqual({
      binding: 'RATE_LIMIT_GO',
      namespaceId: 1007,
      limit: 60,
      period: 60,
    });
    expect(edgeRateLimit(RATE_LIMITS.contact)).toMatchObject({ limit: 5, period: 60 });
    expect(edgeRateLimit({ name: 'x', limit: 3, windowMs: 5000, namespaceId: 1 })).toMatchObject({
      limit: 6,
      period: 10,
    });
    expect(edgeRateLimit({ name: 'x', limit: 10, windowMs: 30_000, namespaceId: 1 })).toMatchObject({
      limit: 20,
      period: 60,
    });
  });
});
