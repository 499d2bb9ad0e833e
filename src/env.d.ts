/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /**
     * Set by the on-demand seam (functions/_app/on-demand.ts, #18) when a page is rendered on
     * request: the page reads the database now instead of the build's one read.
     */
    onDemand?: import('./data/site-data').OnDemandContext;
  }
}

/**
 * The shared settings as the build read them (functions/_app/build-settings.ts), inlined by the
 * Cloudflare build (astro.config.mjs): undefined wherever no such build compiled the code.
 */
declare const __GUILDRANK_BUILD_SETTINGS__: import('../functions/_app/build-settings').BuildSettings | undefined;
