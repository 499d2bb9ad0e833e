// @ts-check
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
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

const OPEN = Buffer.from('<script');
const CLOSE = Buffer.from('</script>');

/**
 * The bodies of the inline scripts of one HTML file (no src attribute, not a JSON data block).
 * @param {Buffer} html
 * @returns {string[]}
 */
export function inlineScripts(html) {
  const bodies = [];
  let at = html.indexOf(OPEN);
  while (at !== -1) {
    const tagEnd = html.indexOf(62 /* > */, at);
    if (tagEnd === -1) break;
    const close = html.indexOf(CLOSE, tagEnd);
    if (close === -1) break;
    const tag = html.subarray(at, tagEnd + 1).toString('utf8');
    if (!/\bsrc=/.test(tag) && !/type="application\/(?:ld\+)?json"/.test(tag)) {
      const body = html.subarray(tagEnd + 1, close).toString('utf8');
      if (body) bodies.push(body);
    }
    at = html.indexOf(OPEN, close);
  }
  return bodies;
}

/**
 * Output files of the pages Astro's incremental build restored from its cache: same route code
 * (dependencyHash) and same cacheKey in the previous and the new manifest.
 * @param {any} previous
 * @param {any} next
 * @returns {Set<string>}
 */
function restoredFiles(previous, next) {
  const restored = new Set();
  if (!previous?.routes || !next?.routes) return restored;
  for (const [route, entry] of Object.entries(next.routes)) {
    const before = previous.routes[route];
    if (!before || before.dependencyHash !== entry.dependencyHash) continue;
    for (const [path, page] of Object.entries(entry.paths)) {
      if (before.paths[path]?.cacheKey === page.cacheKey) restored.add(page.outputFile);
    }
  }
  return restored;
}

/** @param {string | URL} file */
async function readJson(file) {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * After a build, hashes every inline <script> of the built HTML (Astro's island bootstrap;
 * JSON-LD is data and exempt) and writes them to csp-hashes.json, which the server adds to
 * its Content-Security-Policy, so no 'unsafe-inline' is needed. Pages an incremental build
 * restored byte for byte from Astro's cache reuse the hashes found when they were rendered.
 * @returns {import('astro').AstroIntegration}
 */
export function cspHashes() {
  /** @type {URL | null} */
  let cacheDir = null;
  /** @type {any} */
  let previousManifest = null;
  return {
    name: 'csp-hashes',
    hooks: {
      'astro:config:done': ({ config }) => {
        cacheDir = config.cacheDir;
      },
      'astro:build:start': async () => {
        // Astro rewrites its manifest during the build: keep the previous one to compare.
        previousManifest = cacheDir ? await readJson(new URL('incremental-build.json', cacheDir)) : null;
      },
      'astro:build:done': async ({ dir }) => {
        const root = fileURLToPath(dir);
        const files = await htmlFiles(root);
        const memoFile = cacheDir ? new URL('csp-scan-memo.json', cacheDir) : null;
        /** @type {Record<string, string[]>} */
        const memo = (memoFile && (await readJson(memoFile))) ?? {};
        const nextManifest = cacheDir ? await readJson(new URL('incremental-build.json', cacheDir)) : null;
        const restored = restoredFiles(previousManifest, nextManifest);
        /** @type {Record<string, string[]>} */
        const nextMemo = {};
        const hashes = new Set();
        // Reads run 32 at a time, as bytes: only the script tags are decoded.
        let next = 0;
        const worker = async () => {
          while (next < files.length) {
            const file = /** @type {string} */ (files[next++]);
            const rel = relative(root, file).split(sep).join('/');
            let found = restored.has(rel) ? memo[rel] : undefined;
            if (!found) {
              found = [
                ...new Set(
                  inlineScripts(await readFile(file)).map(
                    (body) => `sha256-${createHash('sha256').update(body).digest('base64')}`,
                  ),
                ),
              ];
            }
            nextMemo[rel] = found;
            for (const h of found) hashes.add(h);
          }
        };
        await Promise.all(Array.from({ length: 32 }, worker));
        await writeFile(join(root, 'csp-hashes.json'), JSON.stringify([...hashes].sort()));
        if (memoFile) await writeFile(memoFile, JSON.stringify(nextMemo));
      },
    },
  };
}
