// Owner sessions (#17), apart from the console's: their cookie (never the console's `gr_session`),
// the sign-in under way, the signed-in owner of a request and the guild proofs of their sign-in.
// Read by the owner routes, the submissions and the invite check; the guard is middleware/owner-auth.ts.
import type { Context } from 'hono';
import { deleteCookie, getCookie, getSignedCookie, setCookie, setSignedCookie } from 'hono/cookie';
import { type ActiveOwnerSession, getActiveOwnerSession, OWNER_SESSION_ABSOLUTE_MS } from '../../../db/queries/owners';
import type { ClaimProof } from '../../../src/lib/enums';
import type { AppDeps } from '../context';

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

/** Removes the owner session cookie (and the guild-proof cookie earlier versions set beside it). */
export function clearOwnerCookies(c: Context, siteUrl: string): void {
  const options = { path: '/', secure: secureOn(siteUrl), httpOnly: true, sameSite: 'Strict' } as const;
  deleteCookie(c, ownerCookieName(siteUrl), options);
  deleteCookie(c, cookieName(siteUrl, 'gr_owner_guilds'), options);
}

/** How long a sign-in may take at Discord before its state and verifier are forgotten. */
const SIGN_IN_TTL_S = 10 * 60;
/** The same, in ms: a pending sign-in older than this is refused, and its used state may be swept. */
export const SIGN_IN_TTL_MS = SIGN_IN_TTL_S * 1000;

/** What the callback must match: the state, the PKCE verifier and the redirect URI sent to Discord. */
export interface PendingSignIn {
  state: string;
  codeVerifier: string;
  redirectUri: string;
  /** When the sign-in started (ms): the cookie's own max-age binds a browser, this binds a replay. */
  startedAt?: number;
  /** The listing whose review this sign-in starts (#31): its guild's member object is read, then the page is shown again. */
  review?: number | undefined;
}

/**
 * Keeps a sign-in's state and PKCE verifier in a short-lived cookie signed with SESSION_SECRET
 * (HttpOnly; SameSite=Lax, because Discord's redirect back is a cross-site navigation).
 */
export async function setPendingSignIn(c: Context, siteUrl: string, secret: string, pending: PendingSignIn) {
  const value = JSON.stringify({ ...pending, startedAt: pending.startedAt ?? Date.now() });
  await setSignedCookie(c, cookieName(siteUrl, 'gr_owner_oauth'), value, secret, {
    httpOnly: true,
    secure: secureOn(siteUrl),
    sameSite: 'Lax',
    path: '/',
    maxAge: SIGN_IN_TTL_S,
  });
}

/**
 * The sign-in under way (and forgets it in the browser; the callback also records its state as
 * used, spendOAuthState), or null when absent, forged or older than SIGN_IN_TTL_MS at `now`.
 */
export async function takePendingSignIn(
  c: Context,
  siteUrl: string,
  secret: string,
  now = Date.now(),
): Promise<PendingSignIn | null> {
  const name = cookieName(siteUrl, 'gr_owner_oauth');
  const value = await getSignedCookie(c, secret, name);
  deleteCookie(c, name, { path: '/', secure: secureOn(siteUrl), httpOnly: true, sameSite: 'Lax' });
  if (!value) return null;
  try {
    const parsed = JSON.parse(value) as Partial<PendingSignIn>;
    if (typeof parsed.state !== 'string' || typeof parsed.codeVerifier !== 'string') return null;
    if (typeof parsed.redirectUri !== 'string') return null;
    const startedAt = parsed.startedAt;
    if (typeof startedAt !== 'number' || !(now - startedAt < SIGN_IN_TTL_MS) || startedAt > now + 60_000) return null;
    const review = typeof parsed.review === 'number' && Number.isSafeInteger(parsed.review) ? parsed.review : undefined;
    return {
      state: parsed.state,
      codeVerifier: parsed.codeVerifier,
      redirectUri: parsed.redirectUri,
      startedAt,
      ...(review ? { review } : {}),
    };
  } catch {
    return null;
  }
}

/**
 * The proof the sign-in of this session found for `guildId` (kept with the session in the
 * database, so it expires with it and a copied cookie of an older sign-in proves nothing), or null.
 */
export function guildProof(session: ActiveOwnerSession, guildId: string): ClaimProof | null {
  return Object.hasOwn(session.guilds, guildId) ? (session.guilds[guildId] ?? null) : null;
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
