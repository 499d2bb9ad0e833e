// Cloudflare Worker entry (wrangler.toml `main`): the static site is served from the
// assets binding; /api/*, /go/* and every path without a file reach this handler.
import { createEdgeHandler, type EdgeBindings, type EdgeContext } from './_app/edge';

const handle = createEdgeHandler();

export default {
  fetch: (request: Request, env: EdgeBindings, ctx: EdgeContext) => handle(request, env, ctx),
};
