import type { TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed, JSONValue } from 'hono/utils/types';

/**
 * The Content-Security-Policy directives our code sets, besides script-src and style-src.
 * Astro (`security.csp` in astro.config.mjs) takes these and adds script-src and style-src with
 * the hashes of the scripts and styles the project ships, computed from our code at build time;
 * nothing a page shows can add to the policy. Every page gets the same policy, so it is one
 * header for the whole site, whatever the number of listings.
 */
export const CSP_DIRECTIVES = [
  // Nothing unless named below: every kind of resource a page loads has its own directive.
  "default-src 'none'",
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
] as const;

/** Where scripts may come from besides the hashed ones: our origin and Turnstile. */
export const CSP_SCRIPT_RESOURCES = ["'self'", 'https://challenges.cloudflare.com'] as const;

/** Where stylesheets may come from besides the hashed ones: our origin only (no 'unsafe-inline'). */
export const CSP_STYLE_RESOURCES = ["'self'"] as const;

/**
 * The policy before any build exists (and of the Worker's answers if the build's policy file is
 * missing): the same directives with no inline script or style allowed at all.
 */
export const BASE_CONTENT_SECURITY_POLICY = [
  ...CSP_DIRECTIVES,
  `script-src ${CSP_SCRIPT_RESOURCES.join(' ')}`,
  `style-src ${CSP_STYLE_RESOURCES.join(' ')}`,
].join('; ');

/** The file a build writes its policy to (dist/), read by the Node server and the Worker. */
export const CSP_POLICY_FILE = 'csp-policy.txt';

/** Headers sent with every response, static files included (mirrored in dist/_headers for Cloudflare). */
export function securityHeaderSet(policy: string = BASE_CONTENT_SECURITY_POLICY): Record<string, string> {
  return {
    'Content-Security-Policy': policy,
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
 * nothing and be framed by nobody (OWASP's advice for APIs). Pages keep the document policy.
 */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * The headers of JSON answers: the same set with the API policy, less the two that only mean
 * something for a document a browser renders (X-Frame-Options, which frame-ancestors supersedes,
 * and Cross-Origin-Opener-Policy, which applies to top-level documents). One frozen record.
 */
const API_RECORD: Readonly<Record<string, string>> = (() => {
  const { 'X-Frame-Options': _frame, 'Cross-Origin-Opener-Policy': _opener, ...rest } = securityHeaderSet();
  // No answer of the API may be kept by a browser or a shared cache: some hold personal data
  // (a submission's contact email, a session), and the rest are cheap to ask again.
  return Object.freeze({
    ...rest,
    'Content-Security-Policy': API_CONTENT_SECURITY_POLICY,
    'Cache-Control': 'no-store',
  });
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

/**
 * Adds the security headers to an answer unless it was built with them (secureJson) or a
 * handler set its own value. JSON takes the API set; everything else (pages, redirects, text)
 * the document set with the live build's policy, rebuilt only when a rebuild brings a new one.
 * Applied once around the app's dispatch rather than as middleware: a route whose only handler
 * is its own takes Hono's fast path, without the middleware chain's promise per layer.
 */
export function secureAnswers(
  getPolicy: () => string = () => BASE_CONTENT_SECURITY_POLICY,
): (res: Response) => Response {
  let memo: { policy: string; entries: readonly (readonly [string, string])[] } | undefined;
  const pageEntries = () => {
    const policy = getPolicy();
    if (memo?.policy !== policy) memo = { policy, entries: Object.entries(securityHeaderSet(policy)) };
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
