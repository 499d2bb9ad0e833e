import { RANK_EVERY_MS } from '../ranking/constants';

/**
 * The lookup budget of Discord's invite route. Discord documents no limit for it; one report saw a
 * 24 h Cloudflare ban after the 251st lookup in 10 minutes from one IP (discord-api-docs#7145), so
 * the directory keeps to 200 per 10 minutes in all (80 %): 160 for the refresh job, 40 for the
 * submission form's checks.
 */
export const BUDGET = {
  /** The window every budget counts over. */
  windowMs: 10 * 60_000,
  /** Lookups per window for everything the directory asks Discord. */
  totalPerWindow: 200,
  /** The refresh job's share (REFRESH_PER_10MIN overrides it). */
  refreshPerWindow: 160,
  /** Kept for submission checks (the form's live lookup and the check on submit). */
  submissionsPerWindow: 40,
} as const;

/** Windows in a day: 144 of 10 minutes. */
export const WINDOWS_PER_DAY = (24 * 60 * 60_000) / BUDGET.windowMs;

/**
 * How many lookups a refresh pass may make where one invocation has a subrequest budget (the
 * Worker's every-minute Cron Trigger: Cloudflare's Free plan allows 50 subrequests). A lookup costs
 * two or three (Discord, the result's batch, and a read of the guild's other listings the first
 * time), the rest of the invocation (the pass's own reads and writes, the anomaly pass, the placement
 * clock, the deploy hook) about 22, a rank recompute about 10 more: 8 a pass, 4 in a pass that
 * recomputes the ranks (tests/api/refresh-job.test.ts counts every subrequest).
 */
export interface RefreshPace {
  lookups: number;
  lookupsWhenRanking: number;
  /** Minutes between rank recomputes (RANK_EVERY_MS): the passes that take `lookupsWhenRanking`. */
  rankEveryMinutes: number;
}

/** Subrequests per Worker invocation on Cloudflare's Workers Free plan (Workers Paid: 10,000 unless wrangler.toml `[limits] subrequests` says otherwise). */
export const FREE_PLAN_SUBREQUESTS = 50;

/**
 * What a refresh invocation costs besides its lookups: 23 measured by tests/api/refresh-job.test.ts
 * (the pass's reads and writes, the anomaly pass, the placement clock, the deploy hook), and 3 to
 * spare for what that minute does not do (an alert's mail, a placement that starts).
 */
const PASS_SUBREQUESTS = 26;
/** A rank recompute on top (measured 8). */
const RANK_SUBREQUESTS = 8;
/** A lookup at its dearest: Discord, the result's batch, a read of the guild's other listings. */
const LOOKUP_SUBREQUESTS = 3;
/** REFRESH_LOOKUPS_PER_PASS's own ceiling (functions/_app/env.ts), REFRESH_PER_10MIN's most. */
const MAX_LOOKUPS_PER_PASS = 200;

/** The subrequests of a refresh invocation at `lookups` a pass: the dearer of a plain pass and one that ranks. */
export function passSubrequests(lookups: number): number {
  const pace = refreshPace(lookups)!;
  return Math.max(
    PASS_SUBREQUESTS + LOOKUP_SUBREQUESTS * pace.lookups,
    PASS_SUBREQUESTS + RANK_SUBREQUESTS + LOOKUP_SUBREQUESTS * pace.lookupsWhenRanking,
  );
}

/** The most lookups a pass may take within `subrequests` an invocation: REFRESH_LOOKUPS_PER_PASS's ceiling on a plan (`npm run deploy` checks it). */
export function maxLookupsPerPass(subrequests: number): number {
  let most = 0;
  while (most < MAX_LOOKUPS_PER_PASS && passSubrequests(most + 1) <= subrequests) most++;
  return most;
}

/** The Worker's lookups a pass on the Free plan (8); wrangler.toml sets REFRESH_LOOKUPS_PER_PASS, and the deploy refuses none. */
export const WORKER_LOOKUPS_PER_PASS = maxLookupsPerPass(FREE_PLAN_SUBREQUESTS);

/** The pace of REFRESH_LOOKUPS_PER_PASS (half in a pass that recomputes the ranks); none when unset. */
export function refreshPace(lookupsPerPass: number | undefined): RefreshPace | undefined {
  if (lookupsPerPass === undefined) return undefined;
  return {
    lookups: lookupsPerPass,
    lookupsWhenRanking: Math.ceil(lookupsPerPass / 2),
    rankEveryMinutes: RANK_EVERY_MS / 60_000,
  };
}

/**
 * Lookups a day at `perTenMinutes` (160 → 23,040): the most listings the job can check daily.
 * With a `pace` (the Worker's), a day of passes a minute apart under the same window rule as the
 * job (budgetAt), each taking what its cap and the window leave: a window fills more slowly, and the
 * next opens only 10 minutes after its last lookup (8 a pass: 160 every 29-30 minutes).
 */
export function listingsPerDay(perTenMinutes: number, pace?: RefreshPace): number {
  if (!pace) return perTenMinutes * WINDOWS_PER_DAY;
  const minute = 60_000;
  let window = { lastLookupAt: '', count: 0 };
  let total = 0;
  for (let m = 0; m < (24 * 60 * 60_000) / minute; m++) {
    const at = m * minute;
    const { opensNew, left } = budgetAt(window, perTenMinutes, at);
    const cap = m % pace.rankEveryMinutes === 0 ? pace.lookupsWhenRanking : pace.lookups;
    const n = Math.min(cap, left);
    if (n === 0) continue;
    window = { lastLookupAt: new Date(at).toISOString(), count: (opensNew ? 0 : window.count) + n };
    total += n;
  }
  return total;
}

/**
 * Beyond that size the slower lane: the oldest-checked listings go first, so every listing is
 * checked every `days` days, shown honestly by its "checked N days ago".
 */
export function refreshCycleDays(listings: number, perTenMinutes: number): number {
  return Math.max(1, listings / listingsPerDay(perTenMinutes));
}

/** The line `npm run refresh` prints: the budget and what it covers. */
export function capacityLine(perTenMinutes: number, listings: number): string {
  const perDay = listingsPerDay(perTenMinutes);
  const n = (v: number) => v.toLocaleString('en-US');
  const cover =
    listings <= perDay
      ? `${n(listings)} listings checked daily`
      : `${n(listings)} listings checked every ${refreshCycleDays(listings, perTenMinutes).toFixed(1)} days (the slower lane: oldest-checked first)`;
  return `budget ${perTenMinutes} per 10 min = ${n(perDay)} lookups a day: ${cover}`;
}

/**
 * Where the budget stands at `now`. A window stays open while lookups go on and closes 10 minutes
 * after its last one; a closed window gives way to a new one. So two windows' lookups are always
 * 10 minutes or more apart, and no span of 10 minutes, wherever it starts, holds more than one
 * window's `perWindow` lookups (a fixed grid of windows would let up to twice that through
 * around a boundary). `lastLookupAt` is '' before the first lookup.
 */
export function budgetAt(
  window: { lastLookupAt: string; count: number },
  perWindow: number,
  now: number,
): { opensNew: boolean; left: number } {
  const last = window.lastLookupAt === '' ? Number.NEGATIVE_INFINITY : Date.parse(window.lastLookupAt);
  if (now >= last + BUDGET.windowMs) return { opensNew: true, left: perWindow };
  return { opensNew: false, left: Math.max(0, perWindow - window.count) };
}

/**
 * How the submission checks' lookups (the form's live check, the check on submit, an owner's
 * replacement invite: one budget) are spent fairly. Of BUDGET.submissionsPerWindow per window,
 * `reserve` are kept for signed-in owners and a client's first lookup of the window, so strangers
 * spending everything else still leave a real owner's check answered; each client (IP hash) gets
 * at most `perClient` lookups per window, so one address cannot take everyone's share.
 */
export const INVITE_CHECKS = {
  perWindow: BUDGET.submissionsPerWindow,
  reserve: 10,
  perClient: 5,
  /** How long an answer is reused per code: a working invite briefly (its counts move), a dead one an hour. */
  cacheMs: { ok: 5 * 60_000, unknown_invite: 60 * 60_000, refused: 10 * 60_000 },
} as const;

/**
 * The 429 of a client past its share (INVITE_CHECKS.perClient). What is counted is each lookup of
 * Discord made for the client, not each distinct invite: an invite whose answer is past its reuse
 * time (a working one after 5 minutes) is looked up again, and so is a working invite on submit.
 * Those are lookups of the shared budget, so they count, and the message says so.
 */
export function clientShareSpentMessage(): string {
  const okMinutes = INVITE_CHECKS.cacheMs.ok / 60_000;
  const windowMinutes = BUDGET.windowMs / 60_000;
  return `You have made ${INVITE_CHECKS.perClient} invite checks with Discord in ${windowMinutes} minutes (a working invite checked again after ${okMinutes} minutes, or on sending the form, counts again). Please wait before checking another.`;
}

/** The site-wide lookups a check may reach: all of them with the reserve, the rest without. */
export function inviteCheckCeiling(mayUseReserve: boolean): number {
  return mayUseReserve ? INVITE_CHECKS.perWindow : INVITE_CHECKS.perWindow - INVITE_CHECKS.reserve;
}
