// The Cloudflare Worker of a fully prerendered site: the static site is served from the assets
// binding; /api/*, /go/* and every path without a file reach this handler. The deployed Worker is
// site-worker.ts (wrangler.toml `main`), the same entry with the long tail of pages rendered on
// request; the tests run this one with fake assets, without an Astro build.
import {
  createEdgeHandler,
  type EdgeBindings,
  type EdgeContext,
  type EdgeHandlerOptions,
  type EdgeServices,
  edgeServices,
} from './_app/edge';
import { jobsForTrigger } from './_app/jobs/schedule';

/** The part of the Workers ScheduledController the entry uses. */
interface ScheduledController {
  readonly cron: string;
  readonly scheduledTime: number;
}

/** The Worker: fetch answers requests (with `options`' on-demand pages, if any), scheduled runs the jobs. */
export function workerEntry(options: EdgeHandlerOptions = {}) {
  const handle = createEdgeHandler(options);
  return {
    fetch: (request: Request, env: EdgeBindings, ctx: EdgeContext) => handle(request, env, ctx),
    /**
     * The Cron Triggers of wrangler.toml `[triggers]` (WORKER_TRIGGERS of jobs/schedule.ts, checked
     * by a test): every job on the trigger that fired runs (`jobsForTrigger`). A change a job makes
     * goes through the same rebuild trigger as a request's (edgeServices): the pages it names are
     * deleted from the cache, and the deploy hook is asked, before the invocation ends.
     */
    scheduled: (controller: ScheduledController, env: EdgeBindings, ctx: EdgeContext) => {
      let services: EdgeServices;
      try {
        services = edgeServices(env, options);
      } catch (err) {
        // As a request is answered 503: a Worker whose settings are wrong runs nothing.
        console.error('Worker start failed:', err);
        return;
      }
      const { db, env: typed, hook, purging, rebuild } = services;
      const log = (line: string) => console.log(line);
      for (const job of jobsForTrigger(controller.cron, controller.scheduledTime)) {
        const context = { db, env: typed, runtime: 'worker' as const, rebuild, log };
        ctx.waitUntil(
          job.run(context, controller.scheduledTime).then(async () => {
            await purging?.settled();
            await hook?.flush();
            // A change whose deploy-hook call failed (or never went out) is called again (site_changes).
            if (job.name === 'refresh') await hook?.retryFailed(controller.scheduledTime);
          }),
        );
      }
    },
  };
}

export default workerEntry();
