// @ts-check
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import { defineConfig } from 'astro/config';
import { cspHashes } from './src/integrations/csp-hashes.mjs';
import { cloudflareHeaders } from './src/integrations/headers.ts';

// SITE_URL gives canonical URLs and the sitemap their origin.
const site = process.env.SITE_URL || 'http://localhost:4321';

export default defineConfig({
  site,
  // Each builder (npm start, a test worker, a bench run) keeps its own cache, so concurrent
  // builds never share the incremental-build manifest.
  cacheDir: process.env.ASTRO_CACHE_DIR || './node_modules/.astro',
  // Server pages carry a cacheKey (their row's updated_at and the content version): a rebuild
  // after one approval re-renders only what changed and copies the rest. Only where builds
  // follow each other with the cache kept (the server `npm start` runs sets ASTRO_INCREMENTAL=1):
  // on a one-off build the cache is pure cost (a second copy of every page, per-render tracking).
  experimental: { incrementalBuild: process.env.ASTRO_INCREMENTAL === '1' },
  output: 'static',
  trailingSlash: 'never',
  // One file per page (server/x.html), not a folder per page (server/x/index.html): creating
  // ten thousand folders cost more than rendering the pages. URLs are the same either way.
  // Four pages in flight: one renders while the others' files are written.
  build: { format: 'file', inlineStylesheets: 'never', concurrency: Number(process.env.ASTRO_BUILD_CONCURRENCY || 4) },
  integrations: [
    // renderToString instead of a web-stream render per island: islands here are synchronous (no
    // Suspense) and use no useId, whose ids would need the island's prefix that only the stream gets.
    react({ experimentalDisableStreaming: true }),
    sitemap({ filter: (page) => !/not-found|\/admin|\/404|\/saved|\/offline|\/received/.test(page) }),
    cspHashes(),
    cloudflareHeaders(),
  ],
  vite: { resolve: { alias: { '~': new URL('./src', import.meta.url).pathname } } },
});
