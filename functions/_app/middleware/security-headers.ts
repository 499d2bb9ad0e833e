import type { MiddlewareHandler } from 'hono';

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

/** Adds the security headers to every response unless a handler set its own value. */
export const securityHeaders = (getScriptHashes: () => readonly string[] = () => []): MiddlewareHandler => {
  // The set only changes when a rebuild brings new script hashes: build it once per set.
  let memo: { key: string; entries: [string, string][] } | undefined;
  return async (c, next) => {
    const hashes = getScriptHashes();
    const key = hashes.join(' ');
    if (memo?.key !== key) memo = { key, entries: Object.entries(securityHeaderSet(hashes)) };
    const { entries } = memo;
    // Set before the handler: responses built with c.json/c.body/... carry them (and a handler's
    // own c.header wins). Editing a finished response afterwards costs the Node server ~40%.
    for (const [name, value] of entries) c.header(name, value);
    await next();
    // A handler that returned its own Response object skipped the prepared headers.
    if (!c.res.headers.has(entries[0]![0])) {
      for (const [name, value] of entries) {
        if (!c.res.headers.has(name)) c.res.headers.set(name, value);
      }
    }
  };
};
