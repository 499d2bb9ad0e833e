import { hmac, safeEqual } from '../../../src/lib/hash';

/**
 * The signed appeal link of a moderation decision (#32): `<appeal_key>.<hmac(SESSION_SECRET,
 * 'appeal:'+key)>`. The key is random and stored with the decision; the signature means only a
 * link the site sent works, without an account.
 */
export async function appealToken(secret: string, key: string): Promise<string> {
  return `${key}.${await hmac(secret, `appeal:${key}`)}`;
}

/** The decision's key a valid appeal token was signed for, or null for a forged or mangled one. */
export async function verifyAppealToken(secret: string, token: string): Promise<string | null> {
  const dot = token.indexOf('.');
  if (dot <= 0 || dot !== token.lastIndexOf('.')) return null;
  const key = token.slice(0, dot);
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(key)) return null;
  return safeEqual(await hmac(secret, `appeal:${key}`), token.slice(dot + 1)) ? key : null;
}

/** A fresh random decision key (128 bits, base64url without padding). */
export function newAppealKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** The page an appeal link opens: the form, its code filled in from the link. */
export const appealUrl = async (siteUrl: string, secret: string, key: string): Promise<string> =>
  `${siteUrl}/appeal?token=${encodeURIComponent(await appealToken(secret, key))}`;
