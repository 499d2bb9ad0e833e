// Cloudflare Worker entry (wrangler.toml `main`): the static site is served from the
// assets binding; /api/*, /go/* and every path without a file reach this handler.
import { createEdgeHandler, type EdgeBindings, type EdgeContext, edgeDeps } from './_app/edge';
import { REFRESH_EVERY_MS, run as refreshInvites } from './_app/jobs/refresh';
import { SESSION_SWEEP_EVERY_MS, run as sweepSessions } from './_app/jobs/session-sweep';
import { HookRebuildTrigger } from './_app/lib/rebuild-hook';

/** The part of the Workers ScheduledController the entry uses. */
interface ScheduledController {
  readonly cron: string;
  readonly scheduledTime: number;
}

const handle = createEdgeHandler();

/** A cron of "every N minutes" as wrangler.toml writes it: "* * * * *" for 1, "*\/15 * * * *" for 15. */
const everyMinutes = (ms: number) => (ms === 60_000 ? '* * * * *' : `*/${ms / 60_000} * * * *`);

/** The Cron Triggers of wrangler.toml, each to its job. */
/**
 * Lookups per refresh pass on the Worker: each costs two subrequests (Discord, one database batch)
 * and the Free plan allows 50 per invocation. 16 a minute is the budget's pace (160 per 10 minutes).
 */
const WORKER_LOOKUPS_PER_PASS = 16;

const CRONS = { sessionSweep: everyMinutes(SESSION_SWEEP_EVERY_MS), refresh: everyMinutes(REFRESH_EVERY_MS) };

export default {
  fetch: (request: Request, env: EdgeBindings, ctx: EdgeContext) => handle(request, env, ctx),
  /** The Cron Triggers of wrangler.toml `[triggers]`: the scheduled jobs (functions/_app/jobs/). */
  scheduled: (controller: ScheduledController, env: EdgeBindings, ctx: EdgeContext) => {
    if (controller.cron === CRONS.refresh) {
      // A changed public fact asks the deploy hook for a rebuild, sent before the invocation ends.
      const deps = edgeDeps(env);
      const log = (line: string) => console.log(line);
      const hook = deps.env.REBUILD_HOOK_URL
        ? new HookRebuildTrigger({ url: deps.env.REBUILD_HOOK_URL, log })
        : undefined;
      const pass = refreshInvites({ ...deps, rebuild: hook }, controller.scheduledTime, {
        log,
        maxLookups: WORKER_LOOKUPS_PER_PASS,
      }).then(async (r) => {
        if (r !== 'busy' && r.lookups > 0) log(`Refresh (${controller.cron}): ${JSON.stringify(r)}`);
        await hook?.flush();
      });
      ctx.waitUntil(pass);
      return;
    }
    const sweep = sweepSessions(edgeDeps(env), controller.scheduledTime).then((n) => {
      if (n > 0) console.log(`Session sweep (${controller.cron}): ${n} expired session(s) deleted`);
    });
    ctx.waitUntil(sweep);
  },
};
