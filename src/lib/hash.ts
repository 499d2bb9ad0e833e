/** Hex SHA-256 of a string (WebCrypto: Node and workerd alike). */
export async function sha256Hex(input: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(input));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** HMAC-SHA-256 of `message` under `secret`, base64url. */
export async function hmac(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const sig = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(message));
  return base64url(new Uint8Array(sig));
}

/** Base64url without padding. */
export function base64url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of base64url text (padding optional); throws on text that is not base64. */
export function fromBase64url(s: string): Uint8Array<ArrayBuffer> {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Constant-time string comparison. */
export function safeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Recent IP hashes per secret (WebCrypto HMAC is async and costly, and a visitor sends many
 * requests). Two levels rather than one joined key: looking up the address string as it came
 * (Node keeps one per socket) builds no new string per request.
 */
const ipHashes = new Map<string, Map<string, string>>();
let ipHashCount = 0;
const IP_HASH_CACHE_MAX = 10_000;

/** The salted hash of an IP seen recently, without waiting (undefined when not memoized yet). */
export function cachedIpHash(secret: string, ip: string): string | undefined {
  return ipHashes.get(secret)?.get(ip);
}

/**
 * The part of an address that names one client: an IPv4 address whole (an IPv4-mapped IPv6
 * address as its IPv4), an IPv6 address by its /64 prefix, since one subscriber line usually
 * holds a whole /64 and can pick a fresh address per request; counting per full IPv6 address
 * would let one client walk around every rate limit and the sign-in throttle.
 */
export function clientKey(ip: string): string {
  const addr = ip
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  const mapped = /^(?:::|(?:0{1,4}:){5})ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(addr);
  if (mapped) return mapped[1]!;
  if (!addr.includes(':')) return addr;
  const [head = '', tail = ''] = addr.split('::');
  const left = head ? head.split(':') : [];
  const right = addr.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = addr.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}

/** The salted hash stored instead of a visitor's IP address (an IPv6 one by its /64; memoized per secret and IP). */
export async function hashIp(secret: string, ip: string): Promise<string> {
  const hit = cachedIpHash(secret, ip);
  if (hit !== undefined) return hit;
  const hash = await hmac(secret, `ip:${clientKey(ip)}`);
  if (ipHashCount >= IP_HASH_CACHE_MAX) {
    ipHashes.clear();
    ipHashCount = 0;
  }
  let bySecret = ipHashes.get(secret);
  if (!bySecret) {
    bySecret = new Map();
    ipHashes.set(secret, bySecret);
  }
  if (!bySecret.has(ip)) ipHashCount++;
  bySecret.set(ip, hash);
  return hash;
}
