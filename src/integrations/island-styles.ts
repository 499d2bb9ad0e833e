import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** What Astro writes before a page's first island (astro/dist/runtime/server/astro-island-styles.js). */
export const ISLAND_STYLE_ELEMENT = '<style>astro-island,astro-slot,astro-static-slot{display:contents}</style>';

/**
 * The page with Astro's island style element moved from the body into the head: a `style`
 * element in the body is an error for the Nu Html Checker (withastro/astro#10308). The same
 * element, so the policy's hash of it still matches. Unchanged when there is none, or it is in
 * the head already.
 */
export function moveIslandStyle(html: string): string {
  const at = html.indexOf(ISLAND_STYLE_ELEMENT);
  const headEnd = html.indexOf('</head>');
  if (at === -1 || headEnd === -1 || at < headEnd) return html;
  const without = html.slice(0, at) + html.slice(at + ISLAND_STYLE_ELEMENT.length);
  return without.slice(0, headEnd) + ISLAND_STYLE_ELEMENT + without.slice(headEnd);
}

/** Folders of a build whose pages carry no island: server pages (nearly every page of a build) and assets. */
const NO_ISLANDS = new Set(['server', '_astro', 'icons', 'og']);

/** Every .html file of the build outside NO_ISLANDS. */
async function pagesWithIslands(root: string, dir = root): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (dir === root && NO_ISLANDS.has(entry.name)) continue;
      out.push(...(await pagesWithIslands(root, path)));
    } else if (entry.name.endsWith('.html')) out.push(path);
  }
  return out;
}

/**
 * After the build, moves Astro's island style element into the head of each page that has
 * islands. Server pages are skipped without being read: they have no island (their Save, Share
 * and Report are a plain script, ServerActions.astro), and there are thousands of them.
 */
export function islandStylesInHead(): AstroIntegration {
  return {
    name: 'guildrank-island-styles',
    hooks: {
      'astro:build:done': async ({ dir }) => {
        const root = fileURLToPath(dir);
        for (const file of await pagesWithIslands(root)) {
          const html = await readFile(file, 'utf8');
          const moved = moveIslandStyle(html);
          if (moved !== html) await writeFile(file, moved);
        }
      },
    },
  };
}
