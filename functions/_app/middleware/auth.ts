import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { createRemoteJWKSet, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { getOperatorByEmail, type PublicOperator, toPublicOperator } from '../../../db/queries/operators';
import { createSession, getActiveSession } from '../../../db/queries/sessions';
import { safeEqual } from '../../../src/lib/hash';
import type { OperatorRole } from '../../../src/lib/schemas/admin';
import type { AppDeps, AppEnv } from '../context';
import { run as sweepSessions } from '../jobs/session-sweep';
import { ApiError } from '../lib/errors';
import { PUBLIC_ADMIN_PATHS, sessionCookieName, setSessionCookie } from '../lib/operator-session';

/** Hono environment of the /api/admin tree: the signed-in operator and their CSRF token. */
export interface AdminEnv {
  Variables: AppEnv['Variables'] & {
    operator: PublicOperator;
    csrfToken: string;
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const remoteKeys = new Map<string, JWTVerifyGetKey>();

/** The Access signing keys: injected (tests) or the team's remote JWKS, cached per team. */
function accessKeysFor(deps: AppDeps, team: string): JWTVerifyGetKey {
  if (deps.accessKeys) return deps.accessKeys;
  let keys = remoteKeys.get(team);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(`https://${team}/cdn-cgi/access/certs`));
    remoteKeys.set(team, keys);
  }
  return keys;
}

/** The operator a valid Cloudflare Access JWT names, or null (no config, no header, bad token, unknown email). */
async function operatorFromAccess(c: Context<AdminEnv>): Promise<PublicOperator | null> {
  const deps = c.get('deps');
  const team = deps.env.CF_ACCESS_TEAM_DOMAIN?.replace(/^https?:\/\//, '').replace(/\/+$/, '');
  const aud = deps.env.CF_ACCESS_AUD;
  const token = c.req.header('cf-access-jwt-assertion');
  if (!team || !aud || !token) return null;
  try {
    const { payload } = await jwtVerify(token, accessKeysFor(deps, team), {
      audience: aud,
      issuer: `https://${team}`,
      algorithms: ['RS256', 'ES256'],
    });
    if (typeof payload.email !== 'string') return null;
    const op = await getOperatorByEmail(deps.db, payload.email);
    return op ? toPublicOperator(op) : null;
  } catch {
    return null;
  }
}

/**
 * The one guard of the whole /api/admin tree (mounted on `/api/admin/*`, so a route
 * added later is covered too). Admits a live session cookie or a valid Cloudflare Access
 * JWT (which starts a session, so the console gets a CSRF token); refuses everything else
 * with 401. Every non-GET request must also carry the session's CSRF token in X-CSRF-Token
 * (403); that it comes from our origin is the app's one origin check (middleware/origin-check.ts).
 */
export function adminAuth(): MiddlewareHandler<AdminEnv> {
  return async (c, next) => {
    const deps = c.get('deps');
    if (PUBLIC_ADMIN_PATHS.includes(c.req.path)) return next();

    const now = deps.now?.() ?? Date.now();
    const token = getCookie(c, sessionCookieName(deps.env.SITE_URL));
    let session = token ? await getActiveSession(deps.db, token, now) : null;
    if (!session) {
      const viaAccess = await operatorFromAccess(c);
      if (viaAccess) {
        // A sign-in through Access sweeps expired sessions too, as the login route does.
        const [created] = await Promise.all([createSession(deps.db, viaAccess.id, now), sweepSessions(deps, now)]);
        setSessionCookie(c, deps.env.SITE_URL, created.token);
        session = { id: '', csrfToken: created.csrfToken, operator: viaAccess };
      }
    }
    if (!session) throw new ApiError(401, 'unauthenticated', 'Sign in to use the console');

    if (!SAFE_METHODS.has(c.req.method)) {
      const sent = c.req.header('x-csrf-token') ?? '';
      if (!safeEqual(sent, session.csrfToken)) {
        throw new ApiError(403, 'csrf', 'Missing or invalid CSRF token; reload the console');
      }
    }
    c.set('operator', session.operator);
    c.set('csrfToken', session.csrfToken);
    c.header('Cache-Control', 'no-store');
    await next();
  };
}

/** Lets only the given roles through (admin always passes); 403 for the rest. */
export function requireRole(...roles: OperatorRole[]): MiddlewareHandler<AdminEnv> {
  return async (c, next) => {
    const op = c.get('operator');
    if (!op || (op.role !== 'admin' && !roles.includes(op.role))) {
      throw new ApiError(403, 'forbidden', 'Your role cannot do this');
    }
    await next();
  };
}
