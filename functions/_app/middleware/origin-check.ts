import type { MiddlewareHandler } from 'hono';
import { assertSameOrigin } from '../lib/same-origin';

/**
 * The one origin check (CSRF defence), for every write under /api (403 when it fails): a browser
 * names the page that sent a POST in Origin (or Referer), and it must be this site (SITE_URL's
 * origin or the request's own host). `Sec-Fetch-Site: cross-site` is refused outright. A call
 * with neither header is a non-browser client: allowed for public JSON, refused for forms (only
 * browsers send them) and for the console, whose writes come only from its own pages.
 */
export function originCheck(siteUrl: string): MiddlewareHandler {
  return (c, next) => {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') assertSameOrigin(c, siteUrl);
    return next();
  };
}
