import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context';
import { countRequest, type RateLimitRule, rateLimitHeaders, storeFor, tooMany } from '../lib/rate-limits';

/** The middleware of one public route's limit (429 with Retry-After once the client is past it). */
export function rateLimit(rule: RateLimitRule): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    // Synchronous with the in-memory store (and with limits off): no extra turn then.
    const counted = countRequest(c.get('deps'), rule, c.get('ipHash'));
    return counted ? counted.then(next) : next();
  };
}

/**
 * A public route's limit with its headers on every answer (#33's API): the same counting as
 * rateLimit (the same store, the same RATE_LIMITS table), plus RateLimit-Policy / RateLimit on the
 * answer and on the 429, whose Retry-After says when to come back.
 */
export function rateLimitWithHeaders(rule: RateLimitRule): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const deps = c.get('deps');
    if (!deps.env.RATE_LIMITS) return next();
    const outcome = await storeFor(deps).hit(rule, c.get('ipHash'));
    const headers = rateLimitHeaders(rule, outcome);
    if (!outcome.ok) throw tooMany(outcome.resetAt, headers);
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}
