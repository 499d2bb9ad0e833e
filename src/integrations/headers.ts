import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { securityHeaderSet } from '../../functions/_app/middleware/security-headers';

/** Cloudflare ignores a `_headers` line longer than this, so the build refuses to write one. */
export const HEADERS_MAX_LINE = 2000;

/**
 * The `_headers` file for Cloudflare's static asset host: the same security headers the
 * app sends (CSP with the build's inline-script hashes) on every path, and long-lived
 * caching for Astro's content-hashed assets.
 */
export function renderHeadersFile(scriptHashes: readonly string[]): string {
  const lines = ['/*'];
  for (const [name, value] of Object.entries(securityHeaderSet(scriptHashes))) lines.push(`  ${name}: ${value}`);
  lines.push('/_astro/*', '  Cache-Control: public, max-age=31536000, immutable', '');
  const tooLong = lines.find((l) => l.length > HEADERS_MAX_LINE);
  if (tooLong) {
    throw new Error(
      `_headers line over ${HEADERS_MAX_LINE} characters (${tooLong.length}); too many inline scripts for the CSP: ${tooLong.slice(0, 80)}…`,
    );
  }
  return lines.join('\n');
}

/** Writes dist/_headers after the build from csp-hashes.json (the cspHashes integration runs first). */
export function cloudflareHeaders(): AstroIntegration {
  return {
    name: 'cloudflare-headers',
    hooks: {
      'astro:build:done': async ({ dir }) => {
        const root = fileURLToPath(dir);
        const hashes = JSON.parse(await readFile(join(root, 'csp-hashes.json'), 'utf8')) as string[];
        await writeFile(join(root, '_headers'), renderHeadersFile(hashes));
      },
    },
  };
}
