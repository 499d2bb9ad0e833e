import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { CSP_POLICY_FILE, canonicalPolicy, securityHeaderSet } from '../../functions/_app/lib/security-headers';

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
 * Static headers for the whole site. Astro hands over the policy it built from our own scripts and
 * styles (`astro:build:generated`, with the adapter's `staticHeaders` feature on: see
 * onDemandAdapter and withStaticHeaders), which goes to `csp-policy.txt` (the Node server and the
 * Worker send it, on prerendered and on-demand pages alike) and `_headers` (Cloudflare's static
 * host). Nothing is read back from the built pages, so no text a page shows can change the policy.
 */
export function staticHeaders(): AstroIntegration {
  return {
    name: 'guildrank-static-headers',
    hooks: {
      'astro:build:generated': async ({ dir, routeToHeaders }) => {
        const root = fileURLToPath(dir);
        const policy = sitePolicy(routeToHeaders);
        await writeFile(join(root, CSP_POLICY_FILE), `${policy}\n`);
        await writeFile(join(root, '_headers'), renderHeadersFile(policy));
      },
    },
  };
}

/**
 * The adapter of the Node build (#18): the pages the build does not prerender (the long tail of
 * server and listing pages) go into a server bundle whose entry (on-demand-entry.ts) the server
 * `npm start` runs imports and calls (functions/_app/on-demand.ts). `staticHeaders` puts Astro's
 * policy in a header instead of a <meta> element, so a prerendered and an on-demand page are the same HTML.
 */
export function onDemandAdapter(): AstroIntegration {
  return {
    name: 'guildrank-node',
    hooks: {
      'astro:config:done': ({ setAdapter }) => {
        setAdapter({
          name: 'guildrank-node',
          serverEntrypoint: new URL('./on-demand-entry.ts', import.meta.url),
          entrypointResolution: 'auto',
          adapterFeatures: { buildOutput: 'server', staticHeaders: true },
          supportedAstroFeatures: {
            staticOutput: 'stable',
            hybridOutput: 'stable',
            serverOutput: 'stable',
            // No page optimizes images at build or request time.
            sharpImageService: 'stable',
          },
        });
      },
    },
  };
}

type ConfigDone = NonNullable<AstroIntegration['hooks']['astro:config:done']>;

/**
 * An adapter integration (@astrojs/cloudflare) with Astro's `staticHeaders` feature turned on, as
 * onDemandAdapter has it: the policy goes in csp-policy.txt and _headers instead of a <meta>
 * element on each prerendered page, so the Worker's on-demand pages and the static ones match.
 */
export function withStaticHeaders(adapter: AstroIntegration): AstroIntegration {
  const done = adapter.hooks['astro:config:done'] as ConfigDone | undefined;
  if (!done) return adapter;
  const wrapped: ConfigDone = (options) =>
    done({
      ...options,
      setAdapter: (a) => options.setAdapter({ ...a, adapterFeatures: { ...a.adapterFeatures, staticHeaders: true } }),
    });
  return { ...adapter, hooks: { ...adapter.hooks, 'astro:config:done': wrapped } };
}
