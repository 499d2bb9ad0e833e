import { base64url, fromBase64url, hmac, safeEqual } from '../../../src/lib/hash';

/** The UTF-8 text of base64url, or null when it is not base64 or not UTF-8. */
const textOfBase64url = (s: string): string | null => {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(fromBase64url(s));
  } catch {
    return null;
  }
};

/** What a token is for: each purpose signs differently, so one link's token never works for the other. */
type Purpose = 'unsubscribe';

async function signedToken(purpose: Purpose, secret: string, email: string): Promise<string> {
  return `${base64url(new TextEncoder().encode(email))}.${await hmac(secret, `${purpose}:${email}`)}`;
}

async function verifySignedToken(purpose: Purpose, secret: string, token: string): Promise<string | null> {
  const dot = token.indexOf('.');
  if (dot <= 0 || dot !== token.lastIndexOf('.')) return null;
  const email = textOfBase64url(token.slice(0, dot));
  if (!email) return null;
  const expected = await hmac(secret, `${purpose}:${email}`);
  return safeEqual(expected, token.slice(dot + 1)) ? email : null;
}

/** The signed token of an email's unsubscribe link: `<base64url(email)>.<hmac(secret, 'unsubscribe:'+email)>`. */
export function unsubscribeToken(secret: string, email: string): Promise<string> {
  return signedToken('unsubscribe', secret, email);
}

/** The email a valid unsubscribe token was signed for, or null for a forged or mangled one. */
export function verifyUnsubscribeToken(secret: string, token: string): Promise<string | null> {
  return verifySignedToken('unsubscribe', secret, token);
}

/** A confirmation link works this long after it was sent; a new signup sends a new one. */
export const CONFIRM_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The signed token of a newsletter confirmation link (#16), issued at `issuedAt`:
 * `<base64url(email)>.<issuedAt in base 36>.<hmac(secret, 'confirm:'+email+':'+issuedAt)>`.
 */
export async function confirmToken(secret: string, email: string, issuedAt = Date.now()): Promise<string> {
  const at = Math.floor(issuedAt).toString(36);
  return `${base64url(new TextEncoder().encode(email))}.${at}.${await hmac(secret, `confirm:${email}:${at}`)}`;
}

/**
 * The email a valid confirmation token was signed for; 'expired' once it is older than
 * CONFIRM_LINK_TTL_MS at `now`; null for a forged, mangled or issued-in-the-future one.
 */
export async function verifyConfirmToken(
  secret: string,
  token: string,
  now = Date.now(),
): Promise<string | 'expired' | null> {
  const parts = token.split('.');
  if (parts.length !== 3 || !/^[0-9a-z]{1,12}$/.test(parts[1]!)) return null;
  const email = textOfBase64url(parts[0]!);
  if (!email) return null;
  const expected = await hmac(secret, `confirm:${email}:${parts[1]}`);
  if (!safeEqual(expected, parts[2]!)) return null;
  const issuedAt = Number.parseInt(parts[1]!, 36);
  if (issuedAt > now + 60_000) return null;
  return now - issuedAt > CONFIRM_LINK_TTL_MS ? 'expired' : email;
}
