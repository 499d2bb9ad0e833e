// The island style fix on a page's HTML, with no Node module: the build's integration
// (island-styles.ts) applies it to the prerendered files, and the Worker to the pages it renders
// on request (functions/_app/edge-pages.ts), whose bundle cannot hold node: imports.

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
