import { base64url, fromBase64url, safeEqual } from './hash';

/**
 * PBKDF2-SHA256 iterations. Cloudflare Workers refuses PBKDF2 above 100,000 iterations
 * (a workerd limit), and the same hashes must verify on Node and at the edge, so this is
 * the highest count both runtimes accept. Stored with each hash, so raising it later
 * rehashes on the next sign-in (see `needsRehash`).
 */
export const PBKDF2_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(password.normalize('NFKC')),
    'PBKDF2',
    false,
    ['deriveBits'],
  );
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, HASH_BITS);
  return new Uint8Array(bits);
}

/** Hashes a password as `pbkdf2-sha256$<iterations>$<salt b64url>$<hash b64url>`. */
export async function hashPassword(password: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, iterations);
  return `pbkdf2-sha256$${iterations}$${base64url(salt)}$${base64url(hash)}`;
}

/** Checks a password against a stored hash in constant time; false for any malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 4 || parts[0] !== 'pbkdf2-sha256') return false;
  const iterations = Number(parts[1]);
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_ITERATIONS) return false;
  try {
    const hash = await derive(password, fromBase64url(parts[2]!), iterations);
    return safeEqual(base64url(hash), parts[3]!);
  } catch {
    return false;
  }
}

/** True when a stored hash used other parameters than today's, so sign-in should rehash it. */
export function needsRehash(stored: string): boolean {
  const [scheme, iterations] = stored.split('$');
  return scheme !== 'pbkdf2-sha256' || Number(iterations) !== PBKDF2_ITERATIONS;
}

/** A hash of a random password, verified against when the email is unknown so timing does not tell. */
export const DUMMY_HASH_PROMISE: () => Promise<string> = (() => {
  let cached: Promise<string> | null = null;
  return () => {
    cached ??= hashPassword(base64url(crypto.getRandomValues(new Uint8Array(16))));
    return cached;
  };
})();
