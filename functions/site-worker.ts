// The deployed Cloudflare Worker (wrangler.toml `main`), bundled by `astro build` with
// ASTRO_ADAPTER=cloudflare (@astrojs/cloudflare's Vite plugin) together with the pages the build
// does not prerender: worker.ts's Worker, where a path without a static file is first asked of
// Astro (the long tail of server pages, #18), rendered from the database and cached
// (functions/_app/edge-pages.ts), before the redirects and not-found screens.
import { renderOnDemand } from '../src/integrations/on-demand-entry';
import { workerEntry } from './worker';

// The shared settings the build read (astro.config.mjs inlines them): checked against the Worker's own at start.
export default workerEntry({ render: renderOnDemand, buildSettings: __GUILDRANK_BUILD_SETTINGS__ });
