import type { Context } from 'hono';
import type { AppDeps, AppEnv } from '../context';
import { assertSameOrigin } from '../middleware/origin-check';
import { countRequest, type RateLimitRule } from '../middleware/rate-limit';
import { cachedIpHash, hashIp } from './hash';
import { header } from './header';

/** The salted hash of the client's IP (memoized per IP: no promise for a returning client). */
function clientHash(c: Context, deps: AppDeps): string | Promise<string> {
  const ip = deps.clientIp?.(c.req.raw, c.env) ?? header(c, 'cf-connecting-ip') ?? '0.0.0.0';
  const secret = deps.env.IP_HASH_SECRET;
  return cachedIpHash(secret, ip) ?? hashIp(secret, ip);
}

/** What a public route admits: a write (origin check) or a read, and its rate limit. */
export interface Admission {
  /** Origin check (CSRF) for a state-changing request. */
  write: boolean;
  /** The allowance per hashed IP; none for the admin tree, whose routes set their own. */
  limit?: RateLimitRule;
}

/**
 * The start of every request the app handles: puts the app's deps and the client's IP hash on
 * the context (for handlers and helpers), refuses cross-site writes (403) and counts the rate
 * limit (429). Called by each public route's one handler, and as middleware for the admin tree:
 * a route with a single handler takes Hono's fast path (no middleware chain, no promise per layer).
 * Returns nothing when everything was at hand (the caller awaits only a promise), so the hot
 * paths never wait a turn for it.
 */
export function admit(c: Context<AppEnv>, deps: AppDeps, admission?: Admission): void | Promise<void> {
  c.set('deps', deps);
  if (admission?.write) assertSameOrigin(c, deps.env.SITE_URL);
  const hash = clientHash(c, deps);
  if (typeof hash === 'string') {
    c.set('ipHash', hash);
    return admission?.limit ? countRequest(deps, admission.limit, hash) : undefined;
  }
  return hash.then((h) => {
    c.set('ipHash', h);
    return admission?.limit ? countRequest(deps, admission.limit, h) : undefined;
  });
}
