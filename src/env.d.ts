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
