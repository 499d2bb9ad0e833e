import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context';
import { ApiError } from '../lib/errors';

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

/**
 * CSRF defence for public writes: a browser names the page that sent a POST in Origin
 * (or Referer), and it must be this site (SITE_URL's origin or the request's own host).
 * A call with neither header is a non-browser client: allowed for JSON, refused for forms,
 * which only browsers send. `Sec-Fetch-Site: cross-site` is refused outright.
 */
export function originCheck(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return next();
    const originHeader = c.req.header('origin');
    const refererHeader = c.req.header('referer');
    const claimed = originHeader !== undefined ? originOf(originHeader) : originOf(refererHeader);
    const forbidden = () =>
      new ApiError(403, 'cross_origin', 'Cross-site requests are not accepted. Submit the form from this site.');
    if (c.req.header('sec-fetch-site') === 'cross-site') throw forbidden();
    if (claimed) {
      if (!isAllowed(claimed, c.get('deps').env.SITE_URL, c.req.url, c.req.header('host'))) throw forbidden();
      return next();
    }
    // An Origin of "null" or garbage comes from sandboxed or privacy-stripped browser contexts.
    if (originHeader !== undefined || refererHeader !== undefined) throw forbidden();
    const type = (c.req.header('content-type') ?? '').toLowerCase();
    if (type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data')) {
      throw forbidden();
    }
    await next();
  };
}
