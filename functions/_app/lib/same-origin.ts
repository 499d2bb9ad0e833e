// The same-origin rule of every write (CSRF defence): the middleware (middleware/origin-check.ts)
// and the events path (routes/events.ts) both call it.
import type { Context } from 'hono';
import { ApiError } from './errors';

const originOf = (value: string | undefined): string | null => {
  if (!value || value === 'null') return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
};

const siteOrigins = new Map<string, string>();

/** This site's origins: SITE_URL's, the request URL's and the Host header's (either scheme). */
function isAllowed(claimed: string, siteUrl: string, requestUrl: string, host: string | undefined): boolean {
  let site = siteOrigins.get(siteUrl);
  if (site === undefined) {
    site = new URL(siteUrl).origin;
    siteOrigins.set(siteUrl, site);
  }
  if (claimed === site) return true;
  if (host && (claimed === `http://${host}` || claimed === `https://${host}`)) return true;
  return claimed === new URL(requestUrl).origin;
}

const forbidden = () =>
  new ApiError(403, 'cross_origin', 'Cross-site requests are not accepted. Submit the form from this site.');

/**
 * The check itself, for an unsafe method: throws the 403. `header` reads a request header
 * (lower-case name); the events path (routes/events.ts) passes its own reader.
 */
export function assertSameOrigin(
  c: Context,
  siteUrl: string,
  header: (name: string) => string | undefined = (name) => c.req.header(name),
): void {
  if (header('sec-fetch-site') === 'cross-site') throw forbidden();
  const originHeader = header('origin');
  const refererHeader = header('referer');
  const claimed = originHeader !== undefined ? originOf(originHeader) : originOf(refererHeader);
  if (claimed) {
    if (!isAllowed(claimed, siteUrl, c.req.url, header('host'))) throw forbidden();
    return;
  }
  // An Origin of "null" or garbage comes from sandboxed or privacy-stripped browser contexts.
  if (originHeader !== undefined || refererHeader !== undefined) throw forbidden();
  if (c.req.path.startsWith('/api/admin/')) throw forbidden();
  const type = (header('content-type') ?? '').toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data')) {
    throw forbidden();
  }
}
