import {
  acquireLease,
  applyServerCheck,
  type Breaker,
  countDueServers,
  type DueServer,
  ensureJobState,
  getDueServer,
  getJobState,
  getListingContact,
  guildListedElsewhere,
  type JobState,
  listDueServers,
  type RunSummary,
  recordLookup,
  recordRun,
  releaseLease,
} from '../../../db/queries/freshness';
import type { MailInput } from '../../../db/queries/mail';
import { holdFor } from '../../../src/lib/invite-checks/backoff';
import { budgetAt, type RefreshPace } from '../../../src/lib/invite-checks/budget';
import type { InviteAnswer } from '../../../src/lib/invite-checks/classify';
import { applyCheck, type CheckResult, type FreshnessAlert } from '../../../src/lib/invite-checks/state';
import { discordFor } from '../clients/discord';
import type { AppDeps } from '../context';
import { inviteDeadMail } from '../mail/invite-dead';
import { mailSite } from '../mail/site';
import { rankDue, run as rankPass } from './rank';

/** The job's row in job_state. */
export const REFRESH_JOB = 'refresh';

/** How often `npm start` and the Worker's Cron Trigger ("* * * * *") run a pass. */
export const REFRESH_EVERY_MS = 60_000;

/** A pass holds the lease this long at most: 160 lookups at the client's 5 s timeout fit well within it. */
export const LEASE_MS = 15 * 60_000;

/** The breaker's ladders (src/lib/invite-checks/backoff.ts), named here for the job's readers. */
export { AUTH_BLOCK_MS, BLOCK_LADDER_MS } from '../../../src/lib/invite-checks/backoff';

/** Consecutive network or 5xx failures that end a pass: Discord or the network is down, spare the budget. */
export const STOP_AFTER_FAILURES = 3;

/** The longest wait for Discord's bucket (X-RateLimit-Remaining 0) inside a pass; longer ends the pass. */
const MAX_BUCKET_WAIT_MS = 10_000;

/** What a pass needs: the database, the settings, the Discord client (injected or from the env), the rebuild. */
export type RefreshDeps = Pick<AppDeps, 'db' | 'env' | 'discord' | 'fetch' | 'rebuild'>;

export interface RefreshOptions {
  /** Every listing with an invite code, not only the due ones (still within the budget). */
  all?: boolean | undefined;
  log?: ((line: string) => void) | undefined;
  /** In [0, 1): the jitter of the daily checks; tests pin it. */
  random?: (() => number) | undefined;
  /** Waits for Discord's bucket to refill; tests pass one that returns at once. */
  sleep?: ((ms: number) => Promise<void>) | undefined;
  /** Lookups per 10 minutes; default REFRESH_PER_10MIN. */
  perWindow?: number | undefined;
  /**
   * A paced pass (REFRESH_LOOKUPS_PER_PASS; the Worker's, within its invocation's subrequests): at
   * most `lookups` lookups, or `lookupsWhenRanking` when the rank recompute is due (rankDue, asked
   * before the lookups), and no recompute in a pass that was not due then (a flag it opens is
   * weighed by the next pass). Without it the pass takes what the budget allows and ranks after.
   */
  pace?: Pick<RefreshPace, 'lookups' | 'lookupsWhenRanking'> | undefined;
  /**
   * The time each lookup is made, for the budget window: by default `now` plus the time the pass
   * has taken so far, so a window closes 10 minutes after its real last lookup.
   */
  clock?: (() => number) | undefined;
}

const iso = (ms: number) => new Date(ms).toISOString();
const wait = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

/** The breaker an answer trips, if any (holdFor: every upstream figure clamped). */
export function breakerFor(
  answer: InviteAnswer,
  state: Pick<JobState, 'block_level'>,
  now: number,
): Breaker | undefined {
  const hold = holdFor(answer, state.block_level);
  return hold ? { blockedUntil: iso(now + hold.ms), reason: hold.reason, level: hold.level } : undefined;
}

/**
 * Looks one listing up and writes the outcome (listing, history row, budget count, breaker) in one
 * batch. A first check that finds a guild another listing holds is the wrong guild: one listing per guild.
 */
async function checkOne(
  deps: RefreshDeps,
  server: DueServer,
  state: JobState,
  opensNew: boolean,
  now: number,
  { random, clock }: { random: () => number; clock: () => number },
) {
  let answer: InviteAnswer;
  try {
    answer = await discordFor(deps).lookupInvite(server.invite_code, server.guild_id);
  } catch {
    // A stored code that is not a code: nothing was asked; retry later like a transient failure.
    answer = { kind: 'transient', reason: 'unparseable', status: null, rateLimit: null };
    const check = applyCheck(server, answer, now, random);
    await applyServerCheck(deps.db, server.id, check);
    return { answer, check, breaker: undefined, asked: false, state };
  }
  if (
    server.guild_id === null &&
    (answer.kind === 'ok' || answer.kind === 'paused' || answer.kind === 'expiring') &&
    (await guildListedElsewhere(deps.db, answer.invite.guildId, server.id))
  ) {
    answer = {
      kind: 'wrong_guild',
      expectedGuildId: null,
      guildId: answer.invite.guildId,
      name: answer.invite.name,
      rateLimit: answer.rateLimit,
    };
  }
  const check = applyCheck(server, answer, now, random);
  const tripped = breakerFor(answer, state, now);
  const definitive = check.snapshot !== null;
  const breaker = tripped ?? (definitive && state.block_level > 0 ? ({ level: 0 } as const) : undefined);
  // Stamped when the answer came: the window then closes 10 minutes after the lookup ended.
  const window = { at: iso(clock()), opensNew };
  const mails = await alertMails(deps, server.id, check);
  // The owners' Discord webhook notice of a dead invite (#32), once per dead spell like the mail,
  // and in the same batch: the dead alert comes once, so a notice written after it could be lost.
  const dead = check.snapshot ? check.alerts.find((a) => a.kind === 'dead') : undefined;
  const notices =
    dead?.kind === 'dead'
      ? [
          {
            event: {
              kind: 'invite_dead' as const,
              serverName: (await getListingContact(deps.db, server.id))?.name ?? 'Your listing',
              url: `${mailSite(deps.env).url}/account`,
            },
            dedupeKey: `invite-dead:${server.id}:${dead.firstFailAt}`,
          },
        ]
      : [];
  const after = await recordLookup(deps.db, REFRESH_JOB, {
    window,
    serverId: server.id,
    check,
    breaker,
    mails,
    notices,
  });
  return { answer, check, breaker: tripped, asked: true, state: after };
}

/**
 * The mails a check's alerts cause (#16): a listing that went dead tells the contact address of the
 * submission it was approved from, once per dead spell (keyed by its first failure), how to fix it.
 */
async function alertMails(deps: RefreshDeps, serverId: number, check: CheckResult): Promise<MailInput[]> {
  const dead = check.snapshot ? check.alerts.find((a) => a.kind === 'dead') : undefined;
  if (dead?.kind !== 'dead') return [];
  const listing = await getListingContact(deps.db, serverId);
  if (!listing?.contactEmail) return [];
  const site = mailSite(deps.env);
  return [
    {
      kind: 'invite_dead',
      dedupeKey: `invite-dead:${serverId}:${dead.firstFailAt}`,
      to: listing.contactEmail,
      replyTo: deps.env.SUPPORT_EMAIL,
      mail: inviteDeadMail(site, {
        serverName: listing.name,
        serverUrl: `${site.url}/server/${listing.slug}`,
        failingSince: dead.firstFailAt,
      }),
    },
  ];
}

const alertLine = (serverId: number, alert: FreshnessAlert) =>
  alert.kind === 'wrong_guild'
    ? `Refresh: server ${serverId} now opens guild ${alert.guildId ?? '(none)'} instead of ${alert.expectedGuildId ?? 'its own'}: hidden; operators alerted`
    : `Refresh: server ${serverId} is dead (${alert.failStreak} unknown-invite answers since ${alert.firstFailAt}): its submitter is mailed`;

/**
 * One pass of the refresh job at `now`: takes the lease (or answers 'busy'), respects the breaker
 * and the budget (never more than REFRESH_PER_10MIN lookups in one window, 429s included: a 429
 * counts and ends the pass), looks each due listing up in turn, applies the answer
 * (src/lib/invite-checks/state.ts), releases the lease, records the summary and asks for a site
 * rebuild when a public fact changed. No lookup is lost: a listing whose lookup was transient
 * backs off and stays due; one the budget or the breaker cut off keeps its place at the front.
 */
export async function run(deps: RefreshDeps, now: number, options: RefreshOptions = {}): Promise<RunSummary | 'busy'> {
  const { all = false, random = Math.random, sleep = wait } = options;
  const started = Date.now();
  const clock = options.clock ?? (() => now + (Date.now() - started));
  const log = options.log ?? (() => {});
  const perWindow = options.perWindow ?? deps.env.REFRESH_PER_10MIN;
  const holder = crypto.randomUUID();
  if (!(await acquireLease(deps.db, REFRESH_JOB, holder, now, LEASE_MS))) return 'busy';

  const summary: RunSummary = {
    checked: 0,
    ok: 0,
    unknown: 0,
    transient: 0,
    skipped: 0,
    lookups: 0,
    blockedUntil: null,
  };
  const alerts: { serverId: number; kind: FreshnessAlert['kind'] }[] = [];
  let changed = 0;
  try {
    const due = await countDueServers(deps.db, now, { all });
    let state = (await getJobState(deps.db, REFRESH_JOB))!;
    const budget = (s: JobState) =>
      budgetAt({ lastLookupAt: s.window_start, count: s.window_count }, perWindow, clock());
    let window = budget(state);
    const blocked = state.blocked_until > iso(now);
    // A paced pass knows before its lookups whether it ranks too, and keeps subrequests for it.
    const ranking = options.pace ? await rankDue(deps.db, now) : undefined;
    const maxLookups = options.pace
      ? ranking
        ? options.pace.lookupsWhenRanking
        : options.pace.lookups
      : Number.POSITIVE_INFINITY;
    const limit = Math.min(window.left, maxLookups);
    const servers = blocked || limit === 0 ? [] : await listDueServers(deps.db, now, { all, limit });
    if (blocked) summary.blockedUntil = state.blocked_until;

    let failures = 0;
    let attempted = 0;
    for (const server of servers) {
      // The job's row as the last write left it: a console "refresh now" or another runner's 429 counts too.
      if (state.blocked_until > iso(now)) {
        summary.blockedUntil = state.blocked_until;
        break;
      }
      window = budget(state);
      if (window.left === 0) break;

      const looked = await checkOne(deps, server, state, window.opensNew, now, { random, clock });
      const { answer, check, breaker, asked } = looked;
      state = looked.state;
      // A listing the breaker stopped was not checked: it stays due and counts as skipped.
      if (!breaker) attempted += 1;
      if (asked) summary.lookups += 1;
      if (check.snapshot) {
        summary.checked += 1;
        failures = 0;
      }
      if (answer.kind === 'ok') summary.ok += 1;
      if (answer.kind === 'unknown_invite') summary.unknown += 1;
      if (check.publicChange) changed += 1;
      for (const alert of check.alerts) {
        alerts.push({ serverId: server.id, kind: alert.kind });
        log(alertLine(server.id, alert));
      }
      if (breaker) {
        summary.blockedUntil = breaker.blockedUntil;
        log(`Refresh: ${breaker.reason}; no lookups until ${breaker.blockedUntil}`);
        break;
      }
      if (answer.kind === 'transient') {
        summary.transient += 1;
        if (answer.reason !== 'unparseable' && ++failures >= STOP_AFTER_FAILURES) {
          log(`Refresh: ${failures} failures in a row (${answer.reason}); the rest wait for the next pass`);
          break;
        }
      }
      // Discord's own bucket is empty: wait for it briefly, or leave the rest to the next pass.
      const bucket = answer.rateLimit;
      if (bucket?.remaining === 0 && bucket.resetAfterMs !== null) {
        if (bucket.resetAfterMs > MAX_BUCKET_WAIT_MS) break;
        await sleep(bucket.resetAfterMs);
      }
    }
    summary.skipped = Math.max(0, due - attempted);
    summary.changed = changed;
    if (alerts.length > 0) summary.alerts = alerts;
    await recordRun(deps.db, REFRESH_JOB, now, summary);
    const ranked = await rankPass(deps, now, { force: all, due: ranking });
    // A public fact changed, or the recompute changed what some server pages show (score, place).
    // Recorded after the pass: its writes are many (one per check, then the ranks), its pages known only at the end.
    if (changed > 0 || ranked.pages.length > 0) await deps.rebuild?.request('refresh', ranked.pages);
    return summary;
  } finally {
    await releaseLease(deps.db, REFRESH_JOB, holder);
  }
}

/** What "refresh now" did: the answer's kind and the check applied, or why nothing was asked. */
export type RefreshServerResult =
  | { status: 'checked'; kind: InviteAnswer['kind']; check: CheckResult }
  | { status: 'not_found' }
  | { status: 'blocked'; blockedUntil: string }
  | { status: 'budget' };

/**
 * Checks one listing now (the console's "refresh now"), outside the schedule but inside the same
 * budget and breaker: it counts in the window, and a 429 or a block page trips the breaker for the job.
 */
export async function refreshServer(
  deps: RefreshDeps,
  serverId: number,
  now: number,
  options: Pick<RefreshOptions, 'random' | 'perWindow' | 'log'> = {},
): Promise<RefreshServerResult> {
  const server = await getDueServer(deps.db, serverId);
  if (!server) return { status: 'not_found' };
  await ensureJobState(deps.db, REFRESH_JOB);
  const state = (await getJobState(deps.db, REFRESH_JOB))!;
  if (state.blocked_until > iso(now)) return { status: 'blocked', blockedUntil: state.blocked_until };
  const window = budgetAt(
    { lastLookupAt: state.window_start, count: state.window_count },
    options.perWindow ?? deps.env.REFRESH_PER_10MIN,
    now,
  );
  if (window.left === 0) return { status: 'budget' };
  const { answer, check } = await checkOne(deps, server, state, window.opensNew, now, {
    random: options.random ?? Math.random,
    clock: () => now,
  });
  for (const alert of check.alerts) options.log?.(alertLine(server.id, alert));
  // Whether the check changed a public fact is known only once checkOne has written it.
  if (check.publicChange) await deps.rebuild?.request('refresh');
  return { status: 'checked', kind: answer.kind, check };
}
