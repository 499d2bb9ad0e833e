// @ts-check
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Lists every .html file under `dir`.
 * @param {string} dir
 * @returns {Promise<string[]>}
 */
async function htmlFiles(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await htmlFiles(path)));
    else if (entry.name.endsWith('.html')) out.push(path);
  }
  return out;
}

/**
 * After a build, hashes every inline <script> of the built HTML (Astro's island bootstrap,
 * JSON-LD is data and exempt) and writes them to csp-hashes.json, which the server adds to
 * its Content-Security-Policy, so no 'unsafe-inline' is needed.
 * @returns {import('astro').AstroIntegration}
 */
export function cspHashes() {
  return {
    name: 'csp-hashes',
    hooks: {
      'astro:build:done': async ({ dir }) => {
        const root = fileURLToPath(dir);
        const hashes = new Set();
        const inline = /<script(?![^>]*\bsrc=)(?![^>]*type="application\/(?:ld\+)?json")[^>]*>([\s\S]*?)<\/script>/g;
        const files = await htmlFiles(root);
        // Identical pages share scripts; reading every file keeps this honest at any size.
        for (const file of files) {
          const html = await readFile(file, 'utf8');
          for (const match of html.matchAll(inline)) {
            if (match[1]) hashes.add(`sha256-${createHash('sha256').update(match[1]).digest('base64')}`);
          }
        }
        await writeFile(join(root, 'csp-hashes.json'), JSON.stringify([...hashes].sort()));
      },
    },
  };
}
