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
type Purpose = 'unsubscribe' | 'confirm';

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

/** The signed token of a newsletter confirmation link (#16): like the unsubscribe token, signed 'confirm:'+email. */
export function confirmToken(secret: string, email: string): Promise<string> {
  return signedToken('confirm', secret, email);
}

/** The email a valid confirmation token was signed for, or null. */
export function verifyConfirmToken(secret: string, token: string): Promise<string | null> {
  return verifySignedToken('confirm', secret, token);
}
