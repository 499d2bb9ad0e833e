import type { TypedResponse } from 'hono';
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

/**
 * The headers of JSON answers: the same set with the API policy, less the two that only mean
 * something for a document a browser renders (X-Frame-Options, which frame-ancestors supersedes,
 * and Cross-Origin-Opener-Policy, which applies to top-level documents). One frozen record.
 */
const API_RECORD: Readonly<Record<string, string>> = (() => {
  const { 'X-Frame-Options': _frame, 'Cross-Origin-Opener-Policy': _opener, ...rest } = securityHeaderSet();
  return Object.freeze({ ...rest, 'Content-Security-Policy': API_CONTENT_SECURITY_POLICY });
})();
const API_ENTRIES = Object.entries(API_RECORD);
const API_JSON: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json', ...API_RECORD });

/** Whether a content type is JSON (the answers that take the API policy). */
const isJson = (contentType: string | null | undefined): boolean =>
  !!contentType && /^application\/(?:[\w.+-]*\+)?json\b/i.test(contentType);

/**
 * Marks a Response built with the headers already in place (secureJson), which secureAnswers
 * leaves alone. A symbol-keyed property rather than a WeakSet: adding to a WeakSet cost about
 * 0.2 µs per answer, plus the collector's work on its entries.
 */
const SECURED: unique symbol = Symbol('secured');
type Marked = Response & { [SECURED]?: true };
const markSecured = <R extends Response>(res: R): R => {
  (res as Marked)[SECURED] = true;
  return res;
};

const NO_HASHES: readonly string[] = [];

/**
 * Adds the security headers to an answer unless it was built with them (secureJson) or a
 * handler set its own value. JSON takes the API set; everything else (pages, redirects, text)
 * the document set with the current script hashes, rebuilt only when a rebuild brings new ones.
 * Applied once around the app's dispatch rather than as middleware: a route whose only handler
 * is its own takes Hono's fast path, without the middleware chain's promise per layer.
 */
export function secureAnswers(getScriptHashes: () => readonly string[] = () => NO_HASHES): (res: Response) => Response {
  let memo: { hashes: readonly string[]; key: string; entries: readonly (readonly [string, string])[] } | undefined;
  const pageEntries = () => {
    const hashes = getScriptHashes();
    if (memo?.hashes !== hashes) {
      const key = hashes.join(' ');
      if (memo?.key === key) memo.hashes = hashes;
      else memo = { hashes, key, entries: Object.entries(securityHeaderSet(hashes)) };
    }
    return memo.entries;
  };
  return (res) => {
    if ((res as Marked)[SECURED]) return res;
    let out = res;
    let headers = res.headers;
    for (const [name, value] of isJson(headers.get('content-type')) ? API_ENTRIES : pageEntries()) {
      if (headers.has(name)) continue;
      try {
        headers.set(name, value);
      } catch {
        // Immutable headers (a fetched or redirect Response): copy once, then add.
        out = new Response(out.body, out);
        headers = out.headers;
        headers.set(name, value);
      }
    }
    return out;
  };
}

/**
 * A JSON answer with the API headers already in it, in a plain record: @hono/node-server
 * writes such a Response straight to the socket, where a Headers object (what c.json and
 * c.body build once any header is set) costs a conversion per answer. `headers` win (same
 * spelling). Any other body is answered as given and gets the page headers from secureAnswers.
 */
export function secureResponse(body: string, status: ContentfulStatusCode, headers: Record<string, string>): Response {
  if (!isJson(headers['content-type'] ?? headers['Content-Type'])) return new Response(body, { status, headers });
  return markSecured(new Response(body, { status, headers: { ...API_RECORD, ...headers } }));
}

/** A JSON answer built like secureResponse (no per-answer header copy at all), typed like c.json for `hc<AppType>`. */
export function secureJson<T extends JSONValue | object, S extends ContentfulStatusCode>(
  data: T,
  status: S,
  headers?: Record<string, string>,
): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  return markSecured(
    new Response(JSON.stringify(data), { status, headers: headers ? { ...API_JSON, ...headers } : API_JSON }),
  ) as Response & TypedResponse<JSONParsed<T>, S, 'json'>;
}
