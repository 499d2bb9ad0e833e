// The owner routes' guard (#17): an owner's cookie is nothing to /api/admin (whose guard reads only
// the operator cookie) and an operator's nothing to /api/account. The session itself: lib/owner-session.ts.
import type { MiddlewareHandler } from 'hono';
import type { ActiveOwnerSession } from '../../../db/queries/owners';
import { safeEqual } from '../../../src/lib/hash';
import type { AppEnv } from '../context';
import { ApiError } from '../lib/errors';
import { currentOwner } from '../lib/owner-session';

/** Hono environment of the owner routes behind ownerAuth: the signed-in owner's session. */
export interface OwnerEnv {
  Variables: AppEnv['Variables'] & { ownerSession: ActiveOwnerSession };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The guard of the owner routes that need a signed-in owner: 401 without a live owner session;
 * every write must also carry the session's CSRF token in X-CSRF-Token (403), beside the app's
 * origin check.
 */
export function ownerAuth(): MiddlewareHandler<OwnerEnv> {
  return async (c, next) => {
    const session = await currentOwner(c, c.get('deps'));
    if (!session) throw new ApiError(401, 'unauthenticated', 'Sign in with Discord to manage your listings');
    if (!SAFE_METHODS.has(c.req.method) && !safeEqual(c.req.header('x-csrf-token') ?? '', session.csrfToken)) {
      throw new ApiError(403, 'csrf', 'Missing or invalid CSRF token; reload the page');
    }
    c.set('ownerSession', session);
    await next();
  };
}
