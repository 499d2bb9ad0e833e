import { Cron } from 'croner';
import type { Db } from '../../../db/client';
import { refreshPace, WORKER_LOOKUPS_PER_PASS } from '../../../src/lib/invite-checks/budget';
import type { MailClient } from '../clients/mail';
import type { RebuildTrigger } from '../context';
import type { Env } from '../env';
import { run as sendMail } from './mail-sender';
import { composesAt, run as sendNewsletter } from './newsletter';
import { ORDER_RECONCILE_CRON, run as reconcileOrders } from './order-reconcile';
import { run as placementClock } from './placement-clock';
import { run as refreshInvites } from './refresh';
import { run as sweepSessions } from './session-sweep';
import { run as sendWebhooks } from './webhook-sender';

/** What a scheduled run is given by whoever runs it: `npm start`, the Worker's scheduled handler or a script. */
export interface JobContext {
  db: Db;
  env: Env;
  /** Where the run happens: the Worker's invocations have a subrequest budget (the Free plan's 50). */
  runtime: 'node' | 'worker';
  /** Asks for a site rebuild when a job changed public facts (npm start's builder, the Worker's deploy hook). */
  rebuild?: RebuildTrigger | undefined;
  /** The mail transport; without it mails wait in the outbox. */
  mail?: MailClient | undefined;
  /** The fetch outside calls use (Stripe's client); tests pass their own. */
  fetch?: typeof fetch | undefined;
  log: (line: string) => void;
}

/** One scheduled job: its name, when it runs (a cron in UTC) and one run of it. */
export interface ScheduledJob {
  name: string;
  /** When it runs (five fields, minutes at the finest, UTC): on the Worker its own Cron Trigger unless `trigger` says otherwise. */
  cron: string;
  /**
   * On the Worker, the Cron Trigger it runs under instead of one of its own (Cloudflare's Free plan
   * allows MAX_CRON_TRIGGERS per account): it runs in that trigger's invocations whose time its own
   * `cron` matches, so every time its cron names must be one the trigger fires at (a test checks).
   */
  trigger?: string;
  /** Where `npm start` runs it more often than a Cron Trigger can (croner's six fields, seconds first). */
  nodeCron?: string;
  /** One run at `now` (the trigger's scheduled time). */
  run: (ctx: JobContext, now: number) => Promise<unknown>;
}

/**
 * Mails per sender pass on the Worker: each costs two subrequests (the provider, the database),
 * with one for the claim and one to give back the rest when the provider is down. The mail sender
 * and the webhook sender share the every-2-minutes trigger, so one invocation runs both within the
 * Free plan's 50: 16 mails (at most 34) and WORKER_WEBHOOKS_PER_PASS notices (at most 14). Every
 * 2 minutes: 480 mails an hour; a weekly issue to more subscribers than that goes out over the
 * following hours (Workers Paid allows raising both).
 */
export const WORKER_MAILS_PER_PASS = 16;

/**
 * Owners' webhook notices per sender pass on the Worker, in the same invocation as the mail
 * sender's pass: two subrequests for the claim, then two each (Discord, the database), three for a
 * webhook Discord no longer knows (the owner's address, then one batch). 120 an hour.
 */
export const WORKER_WEBHOOKS_PER_PASS = 4;

/**
 * Pages of the week's issue (200 copies each: one read, one batch) a newsletter pass writes on the
 * Worker, with the composing and the session sweep in the same invocation: 3,200 copies a
 * pass, every 15 minutes from Monday 09:00 (about 190,000 by midnight, 2 million by Sunday's end).
 */
export const WORKER_NEWSLETTER_PAGES_PER_PASS = 16;

/**
 * Pages of the week's issue the console's send writes in its own request on the Worker (which
 * has the same 50 subrequests as an invocation, less the session check, the recipients' counts and
 * the audit: 40 measured in all): 2,400 copies; the newsletter's next passes write the rest.
 */
export const WORKER_NEWSLETTER_PAGES_PER_REQUEST = 12;

/**
 * Open orders asked of Stripe per reconcile pass on the Worker: a session asked costs one
 * subrequest, an order it changes about eight more (the order and its listing read, the ledger's
 * batch, the deploy hook's three), so 5 stay within the Free plan's 50 whatever each finds (the
 * library retries none of these calls in the pass: order-reconcile.ts). The
 * pass is hourly and the webhooks come first: the rest wait for the next passes, in turn (the
 * longest-unasked first: takeOrdersToReconcile), so none Stripe cannot settle holds the others up.
 */
export const WORKER_RECONCILE_PER_PASS = 5;

/**
 * Every scheduled job, the one table `npm start` (croner), the Worker's `scheduled` handler
 * (wrangler.toml's Cron Triggers, checked against this table by a test) and the scripts read
 * (`npm run sessions:sweep` runs JOBS['session-sweep']). Each job's lease or claim in the
 * database keeps two runners from overlapping.
 */
export const JOBS = {
  refresh: {
    // The invite refresh (jobs/refresh.ts): every minute within the Discord lookup budget.
    name: 'refresh',
    cron: '* * * * *',
    run: async (ctx, now) => {
      const result = await refreshInvites({ db: ctx.db, env: ctx.env, rebuild: ctx.rebuild }, now, {
        log: ctx.log,
        // REFRESH_LOOKUPS_PER_PASS; on the Worker always paced, within its invocation's 50 subrequests.
        pace: refreshPace(
          ctx.env.REFRESH_LOOKUPS_PER_PASS ?? (ctx.runtime === 'worker' ? WORKER_LOOKUPS_PER_PASS : undefined),
        ),
      });
      if (result !== 'busy' && result.lookups > 0) ctx.log(`Refresh: ${JSON.stringify(result)}`);
      return result;
    },
  },
  mail: {
    // The mail sender (jobs/mail-sender.ts) drains the outbox: every 5 s under npm start, every
    // 2 minutes on the Worker (its own trigger, so its subrequests are not the refresh pass's;
    // the webhook sender shares it, within WORKER_MAILS_PER_PASS + WORKER_WEBHOOKS_PER_PASS).
    name: 'mail',
    cron: '*/2 * * * *',
    nodeCron: '*/5 * * * * *',
    run: async (ctx, now) => {
      const result = await sendMail({ db: ctx.db, env: ctx.env, mail: ctx.mail }, now, {
        log: ctx.log,
        ...(ctx.runtime === 'worker' ? { limit: WORKER_MAILS_PER_PASS } : {}),
      });
      if (result.claimed > 0) ctx.log(`Mail: ${JSON.stringify(result)}`);
      return result;
    },
  },
  newsletter: {
    // The weekly newsletter (jobs/newsletter.ts) into the outbox: composed by the first pass from
    // Mondays 09:00 UTC (composesAt) with someone confirmed, never for nobody; once per ISO week whoever runs it (`npm run newsletter:send`
    // sends a missed week by hand). Every 15 minutes, in the session sweep's invocations: on the
    // Worker a pass writes WORKER_NEWSLETTER_PAGES_PER_PASS pages of copies and the next goes on,
    // whatever the day, so the rest of an issue the console started (a part a request) is written
    // too, into the next week if it was started late on Sunday (newsletter.ts: run); a pass with
    // nothing left reads two to four rows.
    name: 'newsletter',
    cron: '*/15 * * * *',
    run: (ctx, now) =>
      sendNewsletter({ db: ctx.db, env: ctx.env }, now, {
        log: ctx.log,
        compose: composesAt(now),
        ...(ctx.runtime === 'worker' ? { maxPages: WORKER_NEWSLETTER_PAGES_PER_PASS } : {}),
      }),
  },
  'placement-clock': {
    // Paid placement (jobs/placement-clock.ts): slots that end or start this minute, and the
    // reminders 3 days before an end, with no operator.
    name: 'placement-clock',
    cron: '* * * * *',
    run: async (ctx, now) => {
      const tick = await placementClock({ db: ctx.db, env: ctx.env, rebuild: ctx.rebuild }, now);
      if (tick.ended + tick.synced + tick.reminded > 0) ctx.log(`Placement clock: ${JSON.stringify(tick)}`);
      return tick;
    },
  },
  'order-reconcile': {
    // Paid placement (jobs/order-reconcile.ts): every open order's Checkout session asked of Stripe
    // hourly, applying what a lost webhook would have.
    name: 'order-reconcile',
    cron: ORDER_RECONCILE_CRON,
    run: async (ctx, now) => {
      const changed = await reconcileOrders(
        { db: ctx.db, env: ctx.env, rebuild: ctx.rebuild, ...(ctx.fetch ? { fetch: ctx.fetch } : {}) },
        now,
        { log: ctx.log, ...(ctx.runtime === 'worker' ? { limit: WORKER_RECONCILE_PER_PASS } : {}) },
      );
      if (changed > 0) ctx.log(`Order reconcile: ${changed} order(s) changed`);
      return changed;
    },
  },
  'webhook-sender': {
    // Owners' Discord webhook notices (#32, jobs/webhook-sender.ts): with the mail sender's cadence,
    // in the same Worker invocation (so a few a pass there: WORKER_WEBHOOKS_PER_PASS).
    name: 'webhook-sender',
    cron: '*/2 * * * *',
    nodeCron: '*/15 * * * * *',
    run: async (ctx, now) => {
      const result = await sendWebhooks({ db: ctx.db, env: ctx.env, ...(ctx.fetch ? { fetch: ctx.fetch } : {}) }, now, {
        log: ctx.log,
        ...(ctx.runtime === 'worker' ? { limit: WORKER_WEBHOOKS_PER_PASS } : {}),
      });
      if (result.claimed > 0) ctx.log(`Webhooks: ${JSON.stringify(result)}`);
      return result;
    },
  },
  'moderation-log': {
    // The public moderation log (#32, /moderation) is prerendered from the database: rebuilt daily,
    // on the Worker in the session sweep's invocation of 03:30 (a sixth Cron Trigger would be over
    // the Free plan's five; the two together make a few subrequests).
    name: 'moderation-log',
    cron: '30 3 * * *',
    trigger: '*/15 * * * *',
    run: async (ctx) => {
      await ctx.rebuild?.request('daily moderation log', ['/moderation']);
      return 1;
    },
  },
  'session-sweep': {
    // Expired console and owner sessions deleted (jobs/session-sweep.ts).
    name: 'session-sweep',
    cron: '*/15 * * * *',
    run: async (ctx, now) => {
      const deleted = await sweepSessions({ db: ctx.db }, now);
      if (deleted > 0) ctx.log(`Session sweep: ${deleted} expired session(s) deleted`);
      return deleted;
    },
  },
} satisfies Record<string, ScheduledJob>;

/** The table as a list, in the order above. */
export const SCHEDULE: readonly ScheduledJob[] = Object.values(JOBS);

/** Cron Triggers per account on Cloudflare's Workers Free plan (Workers Paid: 250). */
export const MAX_CRON_TRIGGERS = 5;

/** The Worker's Cron Triggers: wrangler.toml `[triggers] crons`, exactly these (a test compares them). */
export const WORKER_TRIGGERS: readonly string[] = [...new Set(SCHEDULE.map((job) => job.trigger ?? job.cron))];

/**
 * The jobs a Worker invocation of Cron Trigger `cron` at `scheduledTime` runs: those on that trigger,
 * less those riding on it whose own cron does not name that minute.
 */
export function jobsForTrigger(cron: string, scheduledTime: number): ScheduledJob[] {
  const at = new Date(scheduledTime);
  return SCHEDULE.filter(
    (job) =>
      (job.trigger ?? job.cron) === cron &&
      (!job.trigger || new Cron(job.cron, { timezone: 'UTC', paused: true }).match(at)),
  );
}
