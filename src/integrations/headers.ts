import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { CSP_POLICY_FILE, canonicalPolicy, securityHeaderSet } from '../../functions/_app/middleware/security-headers';

/** Cloudflare ignores a `_headers` line longer than this, so the build refuses to write one. */
export const HEADERS_MAX_LINE = 2000;

/**
 * The `_headers` file for Cloudflare's static asset host: the same security headers the app
 * sends (the one CSP of the build) on every path, no caching of the operator console, and
 * long-lived caching for Astro's content-hashed assets.
 */
export function renderHeadersFile(policy: string): string {
  const lines = ['/*'];
  for (const [name, value] of Object.entries(securityHeaderSet(policy))) lines.push(`  ${name}: ${value}`);
  lines.push('/admin', '  Cache-Control: no-store');
  lines.push('/_astro/*', '  Cache-Control: public, max-age=31536000, immutable', '');
  const tooLong = lines.find((l) => l.length > HEADERS_MAX_LINE);
  if (tooLong) {
    throw new Error(`_headers line over ${HEADERS_MAX_LINE} characters (${tooLong.length}): ${tooLong.slice(0, 80)}…`);
  }
  return lines.join('\n');
}

/**
 * The one policy of a build, from the headers Astro gives each page (with `staticHeaders`, Astro
 * puts its `security.csp` policy in a header instead of a <meta> element). Every page must carry
 * the same one: a page that added its own hash (Astro.csp) would need a per-page header, which
 * the Node server and `_headers` do not have, so the build stops and says which page.
 */
export function sitePolicy(routeToHeaders: ReadonlyMap<string, { headers: Headers; route: { type: string } }>): string {
  let policy: string | undefined;
  for (const [path, { headers, route }] of routeToHeaders) {
    // Endpoints (robots.txt, the sitemap) are not documents and carry no policy of their own.
    if (route.type !== 'page') continue;
    const value = headers.get('content-security-policy');
    if (!value) throw new Error(`Page ${path} has no Content-Security-Policy (is security.csp on?)`);
    if (policy === undefined) policy = value;
    else if (value !== policy) throw new Error(`Page ${path} has a Content-Security-Policy of its own: ${value}`);
  }
  if (policy === undefined) throw new Error('The build rendered no page, so it has no Content-Security-Policy');
  // In the one order the app's hono/secure-headers writes it, so the file and the header are byte-identical.
  return canonicalPolicy(policy);
}

/**
 * Static headers for the whole site. Registers as a static-output adapter only to turn on Astro's
 * `staticHeaders` feature: Astro then hands over the policy it built from our own scripts and
 * styles (`astro:build:generated`), which goes to `dist/csp-policy.txt` (the Node server and the
 * Worker send it) and `dist/_headers` (Cloudflare's static host). Nothing is read back from the
 * built pages, so no text a page shows can change the policy.
 */
export function staticHeaders(): AstroIntegration {
  return {
    name: 'guildrank-static-headers',
    hooks: {
      'astro:config:done': ({ setAdapter }) => {
        setAdapter({
          name: 'guildrank-static-headers',
          entrypointResolution: 'auto',
          adapterFeatures: { buildOutput: 'static', staticHeaders: true },
          supportedAstroFeatures: { staticOutput: 'stable', serverOutput: 'unsupported', hybridOutput: 'unsupported' },
        });
      },
      'astro:build:generated': async ({ dir, routeToHeaders }) => {
        const root = fileURLToPath(dir);
        const policy = sitePolicy(routeToHeaders);
        await writeFile(join(root, CSP_POLICY_FILE), `${policy}\n`);
        await writeFile(join(root, '_headers'), renderHeadersFile(policy));
      },
    },
  };
}
