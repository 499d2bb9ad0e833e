// @ts-check
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';
import { BUILD_SETTINGS_FILE, buildSettingsOf } from './functions/_app/build-settings.ts';
import { processEnv, toolEnv } from './functions/_app/env.ts';
import { CSP_DIRECTIVES, CSP_SCRIPT_RESOURCES, CSP_STYLE_RESOURCES } from './functions/_app/lib/security-headers.ts';
import { onDemandAdapter, staticHeaders, withStaticHeaders } from './src/integrations/headers.ts';
import { hydrateOnInteraction } from './src/integrations/hydrate-on-interaction.ts';
import { islandStylesInHead } from './src/integrations/island-styles.ts';

// SITE_URL gives canonical URLs their origin; the build tools' variables are read beside it.
const site = processEnv().SITE_URL;
const tools = toolEnv();
// The settings the pages carry that the Worker reads too (functions/_app/build-settings.ts).
const buildSettings = buildSettingsOf(processEnv());

// Where the long tail of pages renders on request (#18): inside the server `npm start` runs
// (onDemandAdapter), or in the Cloudflare Worker (`npm run deploy`, ASTRO_ADAPTER=cloudflare),
// whose prerendering still runs in Node against the same database.
// On Cloudflare the Worker is functions/site-worker.ts (wrangler.toml `main`), bundled with the
// on-demand pages; no page transforms images, so no Images binding ('passthrough').
const cloudflare = tools.ASTRO_ADAPTER === 'cloudflare';
const adapter = cloudflare
  ? withStaticHeaders(
      (await import('@astrojs/cloudflare')).default({
        prerenderEnvironment: 'node',
        imageService: 'passthrough',
        // The wrangler config the Worker is built from (WRANGLER_CONFIG; wrangler.toml by default).
        configPath: tools.WRANGLER_CONFIG,
      }),
    )
  : onDemandAdapter();

/**
 * The Worker's bundle (Vite's 'ssr' environment on Cloudflare; prerendering is the 'prerender'
 * one, in Node) gets a stand-in for the Node database client that getSiteData loads: only the
 * build calls getSiteData, and the real module would put node: imports (node:module, node:url)
 * into a Worker that has no nodejs_compat. On-demand pages read the Worker's web client instead.
 * @type {import('vite').Plugin}
 */
const workerWithoutNodeDb = {
  name: 'guildrank:worker-without-node-db',
  enforce: 'pre',
  applyToEnvironment: (environment) => environment.name === 'ssr',
  resolveId: (id, importer) =>
    id === '../../db/client' && importer?.endsWith('/src/data/site-data.ts') ? '\0guildrank:node-db' : null,
  load: (id) =>
    id === '\0guildrank:node-db'
      ? "export function openDb() { throw new Error('The Node database client is for the build only'); }"
      : null,
};

/**
 * The shared settings as this build read them: inlined where code asks for
 * `__GUILDRANK_BUILD_SETTINGS__` (the Worker compares them with its own at start, and the pages it
 * renders on request show the build's Turnstile key), and written beside the Worker
 * (`<outDir>/server/build-settings.json`) for `npm run deploy`'s check against wrangler.toml.
 * @type {import('vite').Plugin}
 */
const recordBuildSettings = {
  name: 'guildrank:build-settings',
  config: () => ({ define: { __GUILDRANK_BUILD_SETTINGS__: JSON.stringify(buildSettings) } }),
  applyToEnvironment: (environment) => environment.name === 'ssr',
  generateBundle() {
    this.emitFile({
      type: 'asset',
      fileName: BUILD_SETTINGS_FILE,
      source: `${JSON.stringify(buildSettings, null, 2)}\n`,
    });
  },
};

/** What @astrojs/cloudflare prepends to every chunk of the build, browser scripts included. */
const PROCESS_SHIM = /^globalThis\.process\s*\?\?=\s*\{\}[;,]\s*globalThis\.process\.env\s*\?\?=\s*\{\};\s*/;

/**
 * Keeps the adapter's `process` shim (for the Worker's modules) out of the browser scripts,
 * where nothing reads process and every visitor would download it.
 * @type {import('vite').Plugin}
 */
const browserWithoutProcessShim = {
  name: 'guildrank:browser-without-process-shim',
  applyToEnvironment: (environment) => environment.name === 'client',
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type === 'chunk') chunk.code = chunk.code.replace(PROCESS_SHIM, '');
    }
  },
};

/**
 * The Cloudflare build's browser files and styles made as the Node build makes them, so both
 * builds of one commit write the same pages byte for byte (the deploy's incremental publish
 * renders the Cloudflare build's pages with the Node build's page code, scripts/deploy.ts):
 * - the adapter's `process` shim is a banner of every chunk, browser scripts included; taken off
 *   the client environment before the files are hashed (their names are in every page);
 * - the Worker's environment minifies styles for `es2024` (@cloudflare/vite-plugin's cssTarget),
 *   and the pages' stylesheets come from it: for `esnext` instead, Astro's own target, as on Node.
 * @type {import('vite').Plugin}
 */
const sameOutputAsNode = {
  name: 'guildrank:same-output-as-node',
  enforce: 'post',
  configEnvironment(name, options) {
    if (name === 'client') {
      const output = options.build?.rolldownOptions?.output;
      for (const o of Array.isArray(output) ? output : output ? [output] : []) delete o.banner;
    }
    return name === 'ssr' || name === 'prerender' ? { build: { cssTarget: 'esnext' } } : undefined;
  },
};

export default defineConfig({
  site,
  // Markdown (the developer guide, docs/public-api.md) renders code blocks as plain <pre><code>:
  // Shiki's colours are inline style attributes, which the Content-Security-Policy refuses.
  markdown: { syntaxHighlight: false },
  // Each builder (npm start, a test worker, a bench run) keeps its own cache, so concurrent
  // builds never share the incremental-build manifest.
  cacheDir: tools.ASTRO_CACHE_DIR,
  // Server pages carry a cacheKey (their row's updated_at and the content version): a rebuild
  // after one approval re-renders only what changed and copies the rest. Only where builds
  // follow each other with the cache kept (the server `npm start` runs sets ASTRO_INCREMENTAL=1):
  // on a one-off build the cache is pure cost (a second copy of every page, per-render tracking).
  experimental: { incrementalBuild: tools.ASTRO_INCREMENTAL },
  output: 'static',
  trailingSlash: 'never',
  // One file per page (server/x.html), not a folder per page (server/x/index.html): creating
  // ten thousand folders cost more than rendering the pages. URLs are the same either way.
  // Four pages in flight: one renders while the others' files are written.
  build: { format: 'file', inlineStylesheets: 'never', concurrency: tools.ASTRO_BUILD_CONCURRENCY },
  adapter,
  // No page uses Astro sessions (the console has its own): without this, @astrojs/cloudflare
  // would add a SESSION KV namespace to the deployed Worker.
  session: false,
  integrations: [
    // renderToString instead of a web-stream render per island: islands here are synchronous (no
    // Suspense) and use no useId, whose ids would need the island's prefix that only the stream gets.
    react({ experimentalDisableStreaming: true }),
    // No sitemap integration: the sitemap comes from the database (functions/_app/routes/sitemap.ts, #18).
    // Sends Astro's policy as a header (Node and Cloudflare) instead of a <meta> element.
    staticHeaders(),
    // Astro's island style element goes in the head, where a style element belongs.
    islandStylesInHead(),
    // `client:interaction`: the public forms hydrate when the visitor starts on them.
    hydrateOnInteraction(),
  ],
  // Content-Security-Policy from our code: our directives, and script-src/style-src with the
  // hashes of the scripts and styles the project ships (Astro computes them at build time).
  security: {
    csp: {
      directives: [...CSP_DIRECTIVES],
      scriptDirective: { resources: [...CSP_SCRIPT_RESOURCES] },
      styleDirective: { resources: [...CSP_STYLE_RESOURCES] },
    },
  },
  vite: {
    plugins: cloudflare ? [workerWithoutNodeDb, recordBuildSettings, browserWithoutProcessShim, sameOutputAsNode] : [],
    resolve: { alias: { '~': new URL('./src', import.meta.url).pathname } },
  },
});
