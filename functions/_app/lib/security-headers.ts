// The security headers' values (CSP, HSTS, referrer and permissions policies, the API's set): read by
// the build (astro.config.mjs, src/integrations/headers.ts), the Worker and the middleware
// (middleware/security-headers.ts).
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
  // 'self': the console frames the mail previews it serves itself (MAIL_PREVIEW_POLICY below).
  "frame-src 'self' https://challenges.cloudflare.com",
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

/** Headers every answer carries, besides its Content-Security-Policy (one list for secureHeaders and dist/_headers). */
export const STRICT_TRANSPORT_SECURITY = 'max-age=63072000; includeSubDomains';
export const REFERRER_POLICY = 'strict-origin-when-cross-origin';
export const PERMISSIONS_POLICY = { camera: [], microphone: [], geolocation: [], payment: [], usb: [] };

/**
 * The headers of a page or static file with `policy` as its Content-Security-Policy: what the
 * page middleware below sends, written out for Cloudflare's static host (dist/_headers), so both
 * runtimes answer a page alike (tests/api/security-headers.test.ts compares them).
 */
export function securityHeaderSet(policy: string = BASE_CONTENT_SECURITY_POLICY): Record<string, string> {
  return {
    'Content-Security-Policy': policy,
    'Strict-Transport-Security': STRICT_TRANSPORT_SECURITY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': REFERRER_POLICY,
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
 * The policy of a mail's HTML as the console previews it (GET /api/admin/mail/:id/preview and
 * /api/admin/newsletter/issue/:week/preview, lib/mail-preview.ts): the mail's inline styles as a
 * mail client shows them, images as a mail may have them, no script of any kind, nothing posted or
 * fetched, framed only by the site's own pages (the console), and `sandbox`, so even a browser that
 * ignored the frame's sandbox attribute runs it in an opaque origin with no scripts.
 */
export const MAIL_PREVIEW_POLICY = [
  "default-src 'none'",
  'img-src https: data:',
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
  'sandbox',
].join('; ');

/**
 * The API set as one plain record (for an answer made outside the chain: the bench's old events path):
 * exactly what the API secureHeaders below gives a JSON answer, plus its content type and no-store.
 */
export const API_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json',
  'cache-control': 'no-store',
  'content-security-policy': API_CONTENT_SECURITY_POLICY,
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  'referrer-policy': REFERRER_POLICY,
  'strict-transport-security': STRICT_TRANSPORT_SECURITY,
  'x-content-type-options': 'nosniff',
});

/** A policy's directives by name, in order ("script-src" -> "'self' 'sha256-…'"). */
export function parsePolicy(policy: string): Map<string, string> {
  const directives = new Map<string, string>();
  for (const part of policy.split(';')) {
    const text = part.trim();
    if (!text) continue;
    const space = text.indexOf(' ');
    directives.set(space === -1 ? text : text.slice(0, space), space === -1 ? '' : text.slice(space + 1));
  }
  return directives;
}

/** The directive names in the order every policy of ours is written (ours, then Astro's script-src and style-src). */
export const DIRECTIVE_ORDER = [...parsePolicy(BASE_CONTENT_SECURITY_POLICY).keys()];

/**
 * A policy written in the one canonical order: the build's policy file (src/integrations/headers.ts)
 * goes through this, so the header the page middleware assembles directive by directive is
 * byte-identical to the file Cloudflare's static host sends.
 */
export function canonicalPolicy(policy: string): string {
  const directives = parsePolicy(policy);
  const names = [
    ...DIRECTIVE_ORDER.filter((n) => directives.has(n)),
    ...[...directives.keys()].filter((n) => !DIRECTIVE_ORDER.includes(n)),
  ];
  return names.map((n) => (directives.get(n) ? `${n} ${directives.get(n)}` : n)).join('; ');
}
