import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { moveIslandStyle } from './island-style-html';

// The fix itself is web-safe, for the Worker's on-demand pages too.
export { ISLAND_STYLE_ELEMENT, moveIslandStyle } from './island-style-html';

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
