import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import {
  BASE_CONTENT_SECURITY_POLICY,
  DIRECTIVE_ORDER,
  PERMISSIONS_POLICY,
  parsePolicy,
  REFERRER_POLICY,
  STRICT_TRANSPORT_SECURITY,
} from '../lib/security-headers';

const camel = (name: string) => name.replace(/-([a-z])/g, (_, ch: string) => ch.toUpperCase());

/** Options the page and API sets share (hono/secure-headers' own defaults are replaced where ours differ). */
const SHARED = {
  strictTransportSecurity: STRICT_TRANSPORT_SECURITY,
  referrerPolicy: REFERRER_POLICY,
  permissionsPolicy: PERMISSIONS_POLICY,
  // Ours only: no Cross-Origin-Resource-Policy (share images are fetched by other sites' crawlers),
  // none of the legacy ones (X-XSS-Protection, X-Download-Options...) that no current browser reads.
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
  // A handler that set its own value (a no-store, a frame policy) keeps it.
  overwrite: false,
} as const;

/** Whether a content type is JSON (the answers that take the API set). */
const isJson = (contentType: string | null): boolean =>
  !!contentType && /^application\/(?:[\w.+-]*\+)?json\b/i.test(contentType);

const done = async () => {};

/**
 * hono/secure-headers on every answer, the set picked by what the answer is: JSON gets the API
 * set (the strict policy, no document-only headers); pages, static files, redirects, the filled-in
 * form page of a refused post and the console page get the document set with the live build's
 * policy. Its directives are read per answer from `getPolicy` (a rebuild on Node can bring new
 * hashes), parsed once per distinct policy.
 */
export function securityHeaders(getPolicy: () => string = () => BASE_CONTENT_SECURITY_POLICY): MiddlewareHandler {
  let memo: { policy: string; directives: Map<string, string> } | undefined;
  const live = (name: string) => {
    const policy = getPolicy();
    if (memo?.policy !== policy) memo = { policy, directives: parsePolicy(policy) };
    return memo.directives.get(name) ?? '';
  };
  const contentSecurityPolicy = Object.fromEntries(DIRECTIVE_ORDER.map((name) => [camel(name), [() => live(name)]]));
  const page = secureHeaders({ ...SHARED, xFrameOptions: 'DENY', contentSecurityPolicy });
  const api = secureHeaders({
    ...SHARED,
    xFrameOptions: false,
    crossOriginOpenerPolicy: false,
    contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  });
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    if (isJson(headers.get('content-type'))) {
      // JSON takes the API set, which has no X-Frame-Options to drop below.
      try {
        await api(c, done);
      } catch {
        c.res = new Response(c.res.body, c.res);
        await api(c, done);
      }
      return;
    }
    try {
      await page(c, done);
    } catch {
      // Immutable headers (a Response fetched from the assets binding): copy once, then add.
      c.res = new Response(c.res.body, c.res);
      await page(c, done);
    }
    // The one answer any page may frame (the embeddable card, routes/badges.ts) says so in its own
    // policy; X-Frame-Options has no value for that, so it goes (browsers would ignore it anyway).
    if (/(?:^|;)\s*frame-ancestors \*\s*(?:;|$)/.test(c.res.headers.get('content-security-policy') ?? '')) {
      c.res.headers.delete('X-Frame-Options');
    }
  };
}
