// Owner sessions (#17), apart from the console's: their own cookie and table, so an owner's
// cookie is nothing to /api/admin (whose guard reads only the operator cookie) and an operator's
// nothing to /api/account.
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, getSignedCookie, setCookie, setSignedCookie } from 'hono/cookie';
import { type ActiveOwnerSession, getActiveOwnerSession, OWNER_SESSION_ABSOLUTE_MS } from '../../../db/queries/owners';
import type { ClaimProof } from '../../../src/lib/enums';
import { safeEqual } from '../../../src/lib/hash';
import type { AppDeps, AppEnv } from '../context';
import { ApiError } from '../lib/errors';

/** Hono environment of the owner routes behind ownerAuth: the signed-in owner's session. */
export interface OwnerEnv {
  Variables: AppEnv['Variables'] & { ownerSession: ActiveOwnerSession };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `__Host-` cookies need HTTPS; plain-HTTP local runs use unprefixed names. */
const cookieName = (siteUrl: string, name: string) => (siteUrl.startsWith('https:') ? `__Host-${name}` : name);
const secureOn = (siteUrl: string) => siteUrl.startsWith('https:');

/** The owner session cookie's name (never the console's `gr_session`). */
export const ownerCookieName = (siteUrl: string): string => cookieName(siteUrl, 'gr_owner');

/** Sets the owner session cookie: HttpOnly, SameSite=Strict, Path=/, Secure over HTTPS, as the console's. */
export function setOwnerCookie(c: Context, siteUrl: string, token: string): void {
  setCookie(c, ownerCookieName(siteUrl), token, {
    httpOnly: true,
    secure: secureOn(siteUrl),
    sameSite: 'Strict',
    path: '/',
    maxAge: Math.floor(OWNER_SESSION_ABSOLUTE_MS / 1000),
  });
}

/** Removes the owner session cookie and the guild proof that goes with it. */
export function clearOwnerCookies(c: Context, siteUrl: string): void {
  const options = { path: '/', secure: secureOn(siteUrl), httpOnly: true, sameSite: 'Strict' } as const;
  deleteCookie(c, ownerCookieName(siteUrl), options);
  deleteCookie(c, cookieName(siteUrl, 'gr_owner_guilds'), options);
}

/** How long a sign-in may take at Discord before its state and verifier are forgotten. */
const SIGN_IN_TTL_S = 10 * 60;

/** What the callback must match: the state, the PKCE verifier and the redirect URI sent to Discord. */
export interface PendingSignIn {
  state: string;
  codeVerifier: string;
  redirectUri: string;
}

/**
 * Keeps a sign-in's state and PKCE verifier in a short-lived cookie signed with SESSION_SECRET
 * (HttpOnly; SameSite=Lax, because Discord's redirect back is a cross-site navigation).
 */
export async function setPendingSignIn(c: Context, siteUrl: string, secret: string, pending: PendingSignIn) {
  await setSignedCookie(c, cookieName(siteUrl, 'gr_owner_oauth'), JSON.stringify(pending), secret, {
    httpOnly: true,
    secure: secureOn(siteUrl),
    sameSite: 'Lax',
    path: '/',
    maxAge: SIGN_IN_TTL_S,
  });
}

/** The sign-in under way (and forgets it: a state is good once), or null when absent, forged or expired. */
export async function takePendingSignIn(c: Context, siteUrl: string, secret: string): Promise<PendingSignIn | null> {
  const name = cookieName(siteUrl, 'gr_owner_oauth');
  const value = await getSignedCookie(c, secret, name);
  deleteCookie(c, name, { path: '/', secure: secureOn(siteUrl), httpOnly: true, sameSite: 'Lax' });
  if (!value) return null;
  try {
    const parsed = JSON.parse(value) as Partial<PendingSignIn>;
    if (typeof parsed.state !== 'string' || typeof parsed.codeVerifier !== 'string') return null;
    if (typeof parsed.redirectUri !== 'string') return null;
    return { state: parsed.state, codeVerifier: parsed.codeVerifier, redirectUri: parsed.redirectUri };
  } catch {
    return null;
  }
}

/** Guild ids in the proof cookie at most (Discord lists up to 200 guilds; few are managed). */
const MAX_PROVEN_GUILDS = 100;

/**
 * Remembers, for the session, which guilds Discord's list proved the owner's at sign-in (guild id →
 * proof), signed with SESSION_SECRET and bound to the owner: a submission sent while signed in
 * carries that proof (the review queue's "verified owner") without keeping Discord's token.
 */
export async function setGuildProof(
  c: Context,
  siteUrl: string,
  secret: string,
  ownerId: number,
  managed: ReadonlyMap<string, ClaimProof>,
): Promise<void> {
  const g = Object.fromEntries([...managed].slice(0, MAX_PROVEN_GUILDS));
  await setSignedCookie(c, cookieName(siteUrl, 'gr_owner_guilds'), JSON.stringify({ o: ownerId, g }), secret, {
    httpOnly: true,
    secure: secureOn(siteUrl),
    sameSite: 'Strict',
    path: '/',
    maxAge: Math.floor(OWNER_SESSION_ABSOLUTE_MS / 1000),
  });
}

/** The proof the sign-in found for `guildId`, for this owner; null when none (or the cookie is not theirs). */
export async function guildProof(
  c: Context,
  siteUrl: string,
  secret: string,
  ownerId: number,
  guildId: string,
): Promise<ClaimProof | null> {
  const value = await getSignedCookie(c, secret, cookieName(siteUrl, 'gr_owner_guilds'));
  if (!value) return null;
  try {
    const parsed = JSON.parse(value) as { o?: unknown; g?: Record<string, ClaimProof> };
    if (parsed.o !== ownerId || !parsed.g) return null;
    const proof = parsed.g[guildId];
    return proof === 'owner' || proof === 'manage_guild' ? proof : null;
  } catch {
    return null;
  }
}

/** The signed-in owner of this request, or null (no cookie, unknown, idle or expired session). */
export async function currentOwner(
  c: Context,
  deps: Pick<AppDeps, 'db' | 'env' | 'now'>,
): Promise<ActiveOwnerSession | null> {
  const token = getCookie(c, ownerCookieName(deps.env.SITE_URL));
  if (!token) return null;
  return getActiveOwnerSession(deps.db, token, deps.now?.() ?? Date.now());
}

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
