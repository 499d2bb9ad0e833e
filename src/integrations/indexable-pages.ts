import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** A robots meta element that keeps its page out of search results, as BaseLayout writes it. */
const NOINDEX = /<meta\s+name="robots"\s+content="[^"]*\bnoindex\b/i;

/** How far into a page its head is looked for: the robots meta is among the head's first elements. */
const HEAD_LIMIT = 64 * 1024;

/** Whether a page's HTML (its head is enough) asks search engines not to index it. */
export const asksNoIndex = (html: string): boolean => {
  const head = html.slice(0, html.includes('</head>') ? html.indexOf('</head>') : html.length);
  return NOINDEX.test(head);
};

/** The file a built page's URL is served from (`build.format: 'file'`: /server/x is server/x.html, / is index.html). */
export function pageFile(outDir: string, url: string): string {
  const path = decodeURIComponent(new URL(url, 'http://site.invalid').pathname);
  if (path === '/' || path === '') return join(outDir, 'index.html');
  return path.endsWith('/') ? join(outDir, path, 'index.html') : join(outDir, `${path}.html`);
}

/** Bytes read at a time: a page's head usually ends within the first read. */
const CHUNK = 8 * 1024;
const buffer = Buffer.alloc(HEAD_LIMIT);

/** The start of a built file up to its `</head>` (at most HEAD_LIMIT bytes), or null when there is none. */
function readHead(file: string): string | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    let length = 0;
    while (length < HEAD_LIMIT) {
      const read = readSync(fd, buffer, length, Math.min(CHUNK, HEAD_LIMIT - length), length);
      length += read;
      if (read === 0 || buffer.subarray(Math.max(0, length - read - 6), length).includes('</head>')) break;
    }
    return buffer.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * The sitemap lists the pages that ask to be indexed, nothing else: `isIndexable(url)` reads the
 * built page's robots meta, so a page the build marks noindex (a listing whose invite is dead,
 * say) leaves the sitemap by the same decision that marked it, with no second list to keep in
 * step. The integration only learns the build's output folder (`--outDir` included); place it
 * before @astrojs/sitemap, whose filter calls `isIndexable` once the pages are written.
 */
export function indexablePages(): { integration: AstroIntegration; isIndexable: (url: string) => boolean } {
  let outDir: string | undefined;
  return {
    integration: {
      name: 'guildrank:indexable-pages',
      hooks: {
        'astro:config:done': ({ config }) => {
          outDir = fileURLToPath(config.outDir);
        },
      },
    },
    isIndexable: (url) => {
      if (!outDir) return true;
      const head = readHead(pageFile(outDir, url));
      // A URL with no file of its own (an endpoint) is not a page that can ask: it stays listed.
      return head === null || !asksNoIndex(head);
    },
  };
}
