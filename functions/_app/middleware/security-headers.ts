import type { Context, MiddlewareHandler, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed, JSONValue } from 'hono/utils/types';

/**
 * The Content-Security-Policy of every page and answer. Scripts come from our origin
 * (and Turnstile); the few inline scripts Astro emits are allowed by their sha256 hashes,
 * collected from the built HTML at build time (dist/csp-hashes.json), never by 'unsafe-inline'.
 */
export function contentSecurityPolicy(scriptHashes: readonly string[] = []): string {
  const hashes = scriptHashes.map((h) => `'${h}'`).join(' ');
  return [
    "default-src 'self'",
    `script-src 'self'${hashes ? ` ${hashes}` : ''} https://challenges.cloudflare.com`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' https: data:",
    "font-src 'self'",
    "connect-src 'self'",
    'frame-src https://challenges.cloudflare.com',
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
    "manifest-src 'self'",
    "worker-src 'self'",
  ].join('; ');
}

/** Headers sent with every response, static files included (mirrored in dist/_headers for Cloudflare). */
export function securityHeaderSet(scriptHashes: readonly string[] = []): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(scriptHashes),
    'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

/**
 * The policy of JSON answers: they are data, never rendered as a document, so they may load
 * nothing and be framed by nobody (OWASP's advice for APIs). Pages keep the document policy
 * with the build's script hashes; answers are smaller without it (the hashes grow with the site).
 */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** The headers of JSON answers: the same set, with the API policy (no script hashes, so one frozen record). */
const API_RECORD: Readonly<Record<string, string>> = Object.freeze({
  ...securityHeaderSet(),
  'Content-Security-Policy': API_CONTENT_SECURITY_POLICY,
});
const API_ENTRIES = Object.entries(API_RECORD);
const API_JSON: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json', ...API_RECORD });

/** Whether a content type is JSON (the answers that take the API policy). */
const isJson = (contentType: string | null | undefined): boolean =>
  !!contentType && /^application\/(?:[\w.+-]*\+)?json\b/i.test(contentType);

/** The security headers of the current script hashes (pages), as entries and as a record. */
export interface SecurityHeaderSet {
  entries: readonly (readonly [string, string])[];
  /** The set as a frozen record. */
  record: Readonly<Record<string, string>>;
}

/** Responses built with the headers already in place (secureJson), which the middleware leaves alone. */
const secured = new WeakSet<Response>();

const NO_HASHES: readonly string[] = [];

/**
 * Adds the security headers to every response unless a handler set its own value. The set is
 * put on the context first, for secureJson; other answers get it added once they are built.
 */
export const securityHeaders = (
  getScriptHashes: () => readonly string[] = () => NO_HASHES,
): MiddlewareHandler<{ Variables: { securityHeaders: SecurityHeaderSet } }> => {
  // The set only changes when a rebuild brings new script hashes: build it once per set.
  let memo: { hashes: readonly string[]; key: string; set: SecurityHeaderSet } | undefined;
  return async (c, next) => {
    const hashes = getScriptHashes();
    if (memo?.hashes !== hashes) {
      const key = hashes.join(' ');
      if (memo?.key === key) memo.hashes = hashes;
      else {
        const record = securityHeaderSet(hashes);
        const set = { entries: Object.entries(record), record: Object.freeze(record) };
        memo = { hashes, key, set };
      }
    }
    const { set } = memo;
    c.set('securityHeaders', set);
    await next();
    const res = c.res;
    if (secured.has(res)) return;
    // A handler's own value wins. Added after the fact rather than with c.header() up front, so
    // answers built by secureJson (the busiest endpoints) never pay for a Headers object.
    const headers = res.headers;
    for (const [name, value] of isJson(headers.get('content-type')) ? API_ENTRIES : set.entries) {
      if (!headers.has(name)) headers.set(name, value);
    }
  };
};

/**
 * An answer with the security headers already in it, in a plain record: @hono/node-server
 * writes such a Response straight to the socket, where a Headers object (what c.json and
 * c.body build once any header is set) costs a conversion per answer. `headers` win (same spelling).
 */
export function secureResponse(
  c: Context,
  body: string,
  status: ContentfulStatusCode,
  headers: Record<string, string>,
) {
  const set = c.get('securityHeaders') as SecurityHeaderSet | undefined;
  // Outside the middleware (an error thrown before it ran): a plain c.body.
  if (!set) return c.body(body, status, headers);
  const base = isJson(headers['content-type'] ?? headers['Content-Type']) ? API_RECORD : set.record;
  const res = new Response(body, { status, headers: { ...base, ...headers } });
  secured.add(res);
  return res;
}

/** A JSON answer built like secureResponse (no per-answer header copy at all), typed like c.json for `hc<AppType>`. */
export function secureJson<T extends JSONValue | object, S extends ContentfulStatusCode>(
  c: Context,
  data: T,
  status: S,
  headers?: Record<string, string>,
): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  const set = c.get('securityHeaders') as SecurityHeaderSet | undefined;
  if (!set) return c.json(data as JSONValue, status, headers) as Response & TypedResponse<JSONParsed<T>, S, 'json'>;
  const res = new Response(JSON.stringify(data), { status, headers: headers ? { ...API_JSON, ...headers } : API_JSON });
  secured.add(res);
  return res as Response & TypedResponse<JSONParsed<T>, S, 'json'>;
}
