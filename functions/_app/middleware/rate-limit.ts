import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context';
import { countRequest, type RateLimitRule } from '../lib/rate-limits';

/** The middleware of one public route's limit (429 with Retry-After once the client is past it). */
export function rateLimit(rule: RateLimitRule): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await countRequest(c.get('deps'), rule, c.get('ipHash'));
    await next();
  };
}
