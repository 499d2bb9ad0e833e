// The server entry of the Node build (onDemandAdapter in headers.ts, #18): Astro bundles it with
// the pages that are not prerendered. The server `npm start` runs imports it from the live build
// (functions/_app/on-demand.ts) and asks it for a page; it never listens on a port of its own.
import { createApp } from 'astro/app/entrypoint';
import type { OnDemandContext } from '../data/site-data';

// renderToString, not a stream: the page is cached whole (as @astrojs/node's experimentalDisableStreaming).
const app = createApp({ streaming: false });

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
