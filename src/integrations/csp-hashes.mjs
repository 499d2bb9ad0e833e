// @ts-check
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
 * The memo key of a page: its path without slashes or the build format's file name, the same
 * for the request URL a page renders at (`/help.html`, `/index.html`) and for the pathname
 * Astro lists at the end of the build (`help`, ``).
 * @param {string} path
 */
export const pageKey = (path) =>
  path
    .replace(/^\/+/, '')
    .replace(/(?:^|\/)index\.html$|\.html$/, '')
    .replace(/\/+$/, '');

/** @param {string | URL} file */
async function readJson(file) {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The file of a built page, found the way the static server finds it.
 * @param {string} root
 * @param {string} key
 */
async function pageFile(root, key) {
  const base = join(root, key);
  for (const file of key ? [`${base}.html`, join(base, 'index.html')] : [join(root, 'index.html')]) {
    try {
      return await readFile(file);
    } catch {
      // try the next layout
    }
  }
  return null;
}

/** @param {Buffer} html */
const hashesOf = (html) => [
  ...new Set(inlineScripts(html).map((body) => `sha256-${createHash('sha256').update(body).digest('base64')}`)),
];

/**
 * Hashes every inline <script> of the built HTML (Astro's island bootstrap and inlined module
 * scripts; JSON-LD is data and exempt) and writes them to csp-hashes.json, which the server adds
 * to its Content-Security-Policy, so no 'unsafe-inline' is needed.
 *
 * The hashes are taken as each page renders (a wrapper around Astro's prerenderer), not by
 * reading ten thousand files back after the build. Pages an incremental build restores from
 * Astro's cache are not rendered: their hashes come from the memo of the build that rendered
 * them, or, failing that, from their file.
 * @returns {import('astro').AstroIntegration}
 */
export function cspHashes() {
  /** @type {URL | null} */
  let memoFile = null;
  /** Hashes per page key, from earlier builds and this one. @type {Record<string, string[]>} */
  let memo = {};
  return {
    name: 'csp-hashes',
    hooks: {
      'astro:config:done': ({ config }) => {
        memoFile = new URL('csp-scan-memo.json', config.cacheDir);
      },
      'astro:build:start': async ({ setPrerenderer }) => {
        memo = (memoFile && (await readJson(memoFile))) ?? {};
        // Until this build finishes, no memo: a build that fails midway must not leave one that
        // disagrees with the pages Astro cached (restored pages are then read from their files).
        if (memoFile) await rm(memoFile, { force: true });
        setPrerenderer((astro) => ({
          ...astro,
          name: 'csp-hashes',
          render: async (request, options) => {
            const result = await astro.render(request, options);
            const response = result instanceof Response ? result : result.response;
            if (!response.body || !(response.headers.get('content-type') ?? 'text/html').includes('html'))
              return result;
            const body = Buffer.from(await response.arrayBuffer());
            memo[pageKey(new URL(request.url).pathname)] = hashesOf(body);
            const copy = new Response(body, { status: response.status, headers: response.headers });
            return result instanceof Response ? copy : { ...result, response: copy };
          },
        }));
      },
      'astro:build:done': async ({ dir, pages }) => {
        const root = fileURLToPath(dir);
        /** @type {Record<string, string[]>} */
        const next = {};
        const hashes = new Set();
        for (const { pathname } of pages) {
          const key = pageKey(pathname);
          let found = memo[key];
          if (!found) {
            const html = await pageFile(root, key);
            found = html ? hashesOf(html) : [];
          }
          next[key] = found;
          for (const h of found) hashes.add(h);
        }
        await writeFile(join(root, 'csp-hashes.json'), JSON.stringify([...hashes].sort()));
        if (memoFile) await writeFile(memoFile, JSON.stringify(next));
      },
    },
  };
}
