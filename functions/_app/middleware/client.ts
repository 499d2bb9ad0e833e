import type { MiddlewareHandler } from 'hono';
import { cachedIpHash, hashIp } from '../../../src/lib/hash';
import type { AppDeps, AppEnv } from '../context';

/**
 * Puts the app's deps and the client's salted IP hash on the context, for the rate limits, the
 * analytics rows and the sign-in throttle. The IP is the runtime's (socket on Node,
 * CF-Connecting-IP at the edge); its hash is memoized per IP, so a returning client costs no await.
 */
export function clientContext(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const secret = deps.env.IP_HASH_SECRET;
  // Not an async function: a returning client (its hash memoized) passes on in the same turn.
  return (c, next) => {
    c.set('deps', deps);
    const ip = deps.clientIp?.(c.req.raw, c.env) ?? c.req.header('cf-connecting-ip') ?? '0.0.0.0';
    const cached = cachedIpHash(secret, ip);
    if (cached) {
      c.set('ipHash', cached);
      return next();
    }
    return hashIp(secret, ip).then((ipHash) => {
      c.set('ipHash', ipHash);
      return next();
    });
  };
}
