// @ts-check
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import { defineConfig } from 'astro/config';
import { cspHashes } from './src/integrations/csp-hashes.mjs';

// SITE_URL gives canonical URLs and the sitemap their origin.
const site = process.env.SITE_URL || 'http://localhost:4321';

export default defineConfig({
  site,
  output: 'static',
  trailingSlash: 'never',
  build: { format: 'directory', inlineStylesheets: 'never' },
  integrations: [react(), sitemap({ filter: (page) => !/not-found|\/admin|\/404/.test(page) }), cspHashes()],
  vite: { resolve: { alias: { '~': new URL('./src', import.meta.url).pathname } } },
});
