/**
 * Which image URLs a page or the console may load. A stored icon URL is fetched by every
 * visitor's and every moderator's browser, so it must never name a host inside someone's
 * network: an IP literal, loopback, a private or link-local address, a cloud metadata service.
 * Pure and synchronous, so the zod schemas (browser and server) and the icon components share it.
 */

/**
 * Suffixes of names that only resolve inside a machine or a private network: reserved
 * (localhost, local, internal, arpa with home.arpa) or never delegated but common on intranets.
 */
const PRIVATE_SUFFIXES = ['localhost', 'local', 'internal', 'arpa', 'localdomain', 'lan', 'intranet', 'corp', 'home'];

/**
 * True when `hostname` (as `new URL()` gives it: lowercased, IPv4 in any notation already turned
 * into dotted decimal, IPv6 in brackets) is a public DNS name. Every IP literal is refused, public
 * or not: a listing's icon has no reason to use one, and refusing them all leaves no address form
 * (decimal, hex, octal, IPv4-mapped IPv6) to get wrong. Names without a dot (`metadata`,
 * `instance-data`) only resolve through a local search domain, so they are refused too. A public
 * name can still resolve to a private address; no check without DNS can see that.
 */
export function isPublicHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.+$/, '');
  if (!host || host.startsWith('[') || host.includes(':')) return false;
  if (/^[\d.]+$/.test(host) || /^(0x[\da-f]*|\d+)(\.(0x[\da-f]*|\d+)){0,3}$/.test(host)) return false;
  if (!host.includes('.')) return false;
  // `10.0.0.1.nip.io` and the like resolve to the address they spell out.
  if (/(^|\.)\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\./.test(host)) return false;
  return !PRIVATE_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}

/**
 * True when a URL carries a user name or password (`https://user:pass@host/…`): refused for every
 * link and icon, since a reader sees `user` where the host should be and a browser may send them.
 */
export function hasUserInfo(value: string): boolean {
  try {
    const url = new URL(value);
    return url.username !== '' || url.password !== '';
  } catch {
    return /^[a-z][a-z\d+.-]*:\/\/[^/?#]*@/i.test(value);
  }
}

/** True for an absolute https: URL whose host is public (see isPublicHostname). */
export function isPublicHttpsUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && isPublicHostname(url.hostname) && !hasUserInfo(value);
}

/**
 * True when an icon's `src` is safe to render: a path on this site (`/icons/...`, what the
 * sample servers use) or a public https: URL. Rows stored before the host rule existed go
 * through this too, so an old private address shows the initials instead of being fetched.
 */
export function isSafeImageSrc(src: string | null | undefined): src is string {
  if (!src) return false;
  // One leading slash and no backslash: `//host` and `/\host` are other hosts to a browser.
  if (src.startsWith('/')) return !src.startsWith('//') && !src.includes('\\') && !/[\s\u0000-\u001f]/.test(src);
  return isPublicHttpsUrl(src);
}
