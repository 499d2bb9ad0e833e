// The Cloudflare Worker of a fully prerendered site: the static site is served from the assets
// binding; /api/*, /go/* and every path without a file reach this handler. The deployed Worker is
// site-worker.ts (wrangler.toml `main`), the same entry with the long tail of pages rendered on
// request; the tests run this one with fake assets, without an Astro build.
import { createEdgeHandler, type EdgeBindings, type EdgeContext, type EdgeHandlerOptions, edgeDeps } from './_app/edge';
import { run as sendMail } from './_app/jobs/mail-sender';
import { NEWSLETTER_CRON, run as sendNewsletter } from './_app/jobs/newsletter';
import { ORDER_RECONCILE_CRON, run as reconcileOrders } from './_app/jobs/order-reconcile';
import { run as placementClock } from './_app/jobs/placement-clock';
import { REFRESH_EVERY_MS, run as refreshInvites } from './_app/jobs/refresh';
import { SESSION_SWEEP_EVERY_MS, run as sweepSessions } from './_app/jobs/session-sweep';
import { HookRebuildTrigger } from './_app/lib/rebuild-hook';

/** The part of the Workers ScheduledController the entry uses. */
interface ScheduledController {
  readonly cron: string;
  readonly scheduledTime: number;
}

/** How often the Worker's mail trigger drains the outbox ("*\/2 * * * *"). */
const MAIL_SEND_EVERY_MS_WORKER = 2 * 60_000;

/** A cron of "every N minutes" as wrangler.toml writes it: "* * * * *" for 1, "*\/15 * * * *" for 15. */
const everyMinutes = (ms: number) => (ms === 60_000 ? '* * * * *' : `*/${ms / 60_000} * * * *`);

/** The Cron Triggers of wrangler.toml, each to its job. */
/**
 * Lookups per refresh pass on the Worker: each costs two subrequests (Discord, one database batch)
 * and the Free plan allows 50 per invocation. 16 a minute is the budget's pace (160 per 10 minutes).
 */
const WORKER_LOOKUPS_PER_PASS = 16;

/**
 * Mails per sender pass on the Worker: each costs two subrequests (the provider, the database) of
 * the Free plan's 50, with the claim's. Every 2 minutes: 600 mails an hour; a weekly issue to more
 * subscribers than that goes out over the following hours (Workers Paid allows raising it).
 */
const WORKER_MAILS_PER_PASS = 20;

const CRONS = {
  sessionSweep: everyMinutes(SESSION_SWEEP_EVERY_MS),
  refresh: everyMinutes(REFRESH_EVERY_MS),
  /** The mail sender (#16): its own trigger, so its subrequests are not the refresh pass's. */
  mail: everyMinutes(MAIL_SEND_EVERY_MS_WORKER),
  /** The weekly newsletter (#16): Mondays 09:00 UTC. */
  newsletter: NEWSLETTER_CRON,
  /** Paid placement (#30): the reconcile job, hourly. (The placement clock rides the every-minute trigger.) */
  orderReconcile: ORDER_RECONCILE_CRON,
};

/** The Worker: fetch answers requests (with `options`' on-demand pages, if any), scheduled runs the jobs. */
export function workerEntry(options: EdgeHandlerOptions = {}) {
  const handle = createEdgeHandler(options);
  return {
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
          // Paid placement (#30): slots that end or start this minute, and reminders.
          const tick = await placementClock({ ...deps, rebuild: hook }, controller.scheduledTime);
          if (tick.ended + tick.synced + tick.reminded > 0) log(`Placement clock: ${JSON.stringify(tick)}`);
          await hook?.flush();
        });
        ctx.waitUntil(pass);
        return;
      }
      if (controller.cron === CRONS.mail) {
        // Mails through the HTTP provider (MAIL_API_URL, MAIL_API_TOKEN); without it they wait in the outbox.
        const pass = sendMail(edgeDeps(env), controller.scheduledTime, {
          limit: WORKER_MAILS_PER_PASS,
          log: (line) => console.log(line),
        }).then((r) => {
          if (r.claimed > 0) console.log(`Mail (${controller.cron}): ${JSON.stringify(r)}`);
        });
        ctx.waitUntil(pass);
        return;
      }
      if (controller.cron === CRONS.orderReconcile) {
        const deps = edgeDeps(env);
        const log = (line: string) => console.log(line);
        const hook = deps.env.REBUILD_HOOK_URL
          ? new HookRebuildTrigger({ url: deps.env.REBUILD_HOOK_URL, log })
          : undefined;
        const pass = reconcileOrders({ ...deps, rebuild: hook }, controller.scheduledTime, { log }).then(async (n) => {
          if (n > 0) log(`Order reconcile (${controller.cron}): ${n} order(s) changed`);
          await hook?.flush();
        });
        ctx.waitUntil(pass);
        return;
      }
      if (controller.cron === CRONS.newsletter) {
        // This week's issue into the outbox, once per ISO week; the mail trigger delivers it.
        ctx.waitUntil(sendNewsletter(edgeDeps(env), controller.scheduledTime, { log: (line) => console.log(line) }));
        return;
      }
      const sweep = sweepSessions(edgeDeps(env), controller.scheduledTime).then((n) => {
        if (n > 0) console.log(`Session sweep (${controller.cron}): ${n} expired session(s) deleted`);
      });
      ctx.waitUntil(sweep);
    },
  };
}

export default workerEntry();
