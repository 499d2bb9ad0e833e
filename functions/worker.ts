// Cloudflare Worker entry (wrangler.toml `main`): the static site is served from the
// assets binding; /api/*, /go/* and every path without a file reach this handler.
import { createEdgeHandler, type EdgeBindings, type EdgeContext, edgeDeps } from './_app/edge';
import { run as sweepSessions } from './_app/jobs/session-sweep';

/** The part of the Workers ScheduledController the entry uses. */
interface ScheduledController {
  readonly cron: string;
  readonly scheduledTime: number;
}

const handle = createEdgeHandler();

export default {
  fetch: (request: Request, env: EdgeBindings, ctx: EdgeContext) => handle(request, env, ctx),
  /** The Cron Triggers of wrangler.toml `[triggers]`: the scheduled jobs (functions/_app/jobs/). */
  scheduled: (controller: ScheduledController, env: EdgeBindings, ctx: EdgeContext) => {
    const sweep = sweepSessions(edgeDeps(env), controller.scheduledTime).then((n) => {
      if (n > 0) console.log(`Session sweep (${controller.cron}): ${n} expired session(s) deleted`);
    });
    ctx.waitUntil(sweep);
  },
};
