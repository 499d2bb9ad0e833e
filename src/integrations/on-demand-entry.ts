// The server entry of the Node build (onDemandAdapter in headers.ts, #18): Astro bundles it with
// the pages that are not prerendered. The server `npm start` runs imports it from the live build
// (functions/_app/on-demand.ts) and asks it for a page; it never listens on a port of its own.
import { createApp } from 'astro/app/entrypoint';
import type { OnDemandContext } from '../data/site-data';

// renderToString, not a stream: the page is cached whole (as @astrojs/node's experimentalDisableStreaming).
const app = createApp({ streaming: false });
// The policy a render computes is never sent: every page carries the build's one policy
// (csp-policy.txt, the same for every page, see sitePolicy in headers.ts), and with the adapter's
// staticHeaders none goes into the HTML. So a page rendered on request skips hashing its styles
// and scripts again for a header nobody reads (a digest in the thread pool per element).
app.manifest.shouldInjectCspMetaTags = false;
// Nor is the policy computed per render: with the adapter as the policy's destination Astro
// copies the policy's lists into every render and joins them into a header this entry's callers
// drop (renderPage in astro/dist/runtime/server/render/page.js does so whether or not the meta
// tags are wanted). Without a policy in the manifest the pages' HTML is the same.
app.manifest.csp = undefined;
// Each page's module is imported once. Astro asks `pageMap` for it on every render with a
// dynamic import(), and under a module loader's hooks (tsx runs `npm start`) each one is a
// round trip to the hooks' thread: about 0.3 ms of a cold page's 4-5 ms in a CPU profile at
// 1,000,007 listings (docs/SCALING.md, "Rendering on threads, and what a cold page still costs").
const pageMap = app.manifest.pageMap;
if (pageMap) {
  for (const [component, load] of pageMap) {
    let loaded: ReturnType<typeof load> | undefined;
    pageMap.set(component, () => {
      loaded ??= load();
      return loaded;
    });
  }
}

/**
 * The page of `request` rendered by the build's on-demand routes, or undefined when none of
 * them has a page there (a prerendered path, an asset, a bare 404 from a page): the caller
 * answers those as before.
 */
export async function renderOnDemand(request: Request, onDemand: OnDemandContext): Promise<Response | undefined> {
  const routeData = app.match(request);
  if (!routeData) return undefined;
  const response = await app.render(request, {
    routeData,
    locals: { onDemand },
    // A page's bare 404 stays a 404 for the caller: no fetch of a prerendered 404.html over HTTP.
    prerenderedErrorPageFetch: async () => new Response(null, { status: 404 }),
  });
  return response.status === 404 ? undefined : response;
}

/** The route of src/pages/publish.astro, found once by its own path. */
let publishRoute: ReturnType<typeof app.match> | null = null;

/**
 * A prerendered page that no on-demand route renders (the home, a listing's first page), rendered
 * from the database for the incremental publish (functions/_app/site-publish.ts): the request
 * keeps its own URL (canonical, header, JSON-LD) and is given src/pages/publish.astro's route,
 * which answers only when `onDemand.publishing` is set. Undefined when that page has none there.
 */
export async function renderPublished(request: Request, onDemand: OnDemandContext): Promise<Response | undefined> {
  publishRoute ??= app.match(new Request(new URL('/publish', request.url)));
  if (!publishRoute) throw new Error('This build has no /publish route (src/pages/publish.astro)');
  const response = await app.render(request, {
    routeData: publishRoute,
    locals: { onDemand: { ...onDemand, publishing: true } },
    prerenderedErrorPageFetch: async () => new Response(null, { status: 404 }),
  });
  return response.status === 404 ? undefined : response;
}
