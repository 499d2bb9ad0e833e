// The one invite check (#15): what Discord says of an invite an owner typed, run by the submit
// form's live lookup (GET /api/invites/:code), again on submit (POST /api/submissions), and for an
// owner's replacement invite (POST /api/account/listings/:id/invite). One budget, spent fairly:
// the syntax first, then a recent answer for the code (unknown invites included), then the
// client's own share and the site-wide budget with its reserve, and only then Discord. When
// Discord cannot be asked, the answer is a 503, never a guess.

import { spendClientBudget } from '../../../db/queries/client-budgets';
import { clearBreaker, getJobState, tripBreaker } from '../../../db/queries/freshness';
import { cacheInviteAnswer, getCachedInviteAnswer } from '../../../db/queries/invite-answers';
import { guildTaken, spendSubmissionLookup } from '../../../db/queries/submissions';
import { type Hold, holdFor, visitorRetryAfter } from '../../../src/lib/invite-checks/backoff';
import {
  BUDGET,
  clientShareSpentMessage,
  INVITE_CHECKS,
  inviteCheckCeiling,
} from '../../../src/lib/invite-checks/budget';
import { type InviteAnswer, type InviteSnapshot, isDefinitive } from '../../../src/lib/invite-checks/classify';
import { guildIconUrl } from '../../../src/lib/invite-checks/guild-icon';
import { inviteCode } from '../../../src/lib/invite-checks/invite-code';
import { inviteRefusals, permanentInviteRefusal } from '../../../src/lib/requirements';
import { invalidFieldsSummary, SUBMISSION_LABELS } from '../../../src/lib/schemas/labels';
import { discordFor } from '../clients/discord';
import type { AppDeps } from '../context';
import { REFRESH_JOB } from '../jobs/refresh';
import { ApiError } from './errors';

/** The site-wide budget's job_state row: one for every kind of invite check. */
export const INVITE_CHECK_BUDGET = 'invite-checks';
/** The per-client share's name in client_budgets. */
const CLIENT_SHARE = 'invite-lookups';

const L = SUBMISSION_LABELS.invite_link;

/** What the form shows of a checked invite: Discord's own name, icon and approximate counts. */
export interface InvitePreview {
  code: string;
  guild_id: string;
  name: string;
  /** The icon hash, as stored with the submission. */
  icon: string | null;
  /** The icon on Discord's CDN (guildIconUrl), null when the guild has none. */
  icon_url: string | null;
  member_count: number;
  online_count: number;
  /** The MIN_MEMBERS requirement (#32): the form refuses to send a preview under it (membersRefusal). */
  min_members: number;
}

/** Who asks, and for what: the answer's shape and which share of the budget it may use. */
export interface InviteCheckOptions {
  /** The check on submit: the submit form's `validation_failed` with its summary, and no listed-or-pending read. */
  form?: boolean | undefined;
  /** The client's IP hash: its share of the budget. */
  client: string;
  /** A signed-in owner: may use the reserve. */
  owner?: boolean | undefined;
  /** An owner's replacement invite: it must open this guild (the listing's), and may be listed already. */
  guildId?: string | null | undefined;
  /**
   * The listing's or submission's category (#32): on submit and for a replacement invite the
   * refusing requirements (src/lib/requirements/) are applied, the age rule for this category.
   */
  category?: string | undefined;
}

/** The 400 of an invite Discord refuses, on the invite field (`code` names the envelope). */
const refused = (code: 'invite_unusable' | 'validation_failed', message: string, summary?: string) =>
  new ApiError(400, code, summary ?? message, [{ path: 'invite_link', message }]);

/** Why Discord's answer refuses the invite; null when it is a working, permanent guild invite. */
function refusal(answer: InviteAnswer, replacing: boolean, minMembers: number): string | null {
  const field = replacing ? 'This invite' : L;
  switch (answer.kind) {
    case 'ok':
      return null;
    case 'unknown_invite':
      return `${replacing ? '' : `${L}: `}Discord does not know this invite (it expired or was deleted). Create a new invite set to never expire.`;
    case 'expiring': {
      // The permanent-invite requirement (#32): its sentence, naming and linking the requirement.
      const why = permanentInviteRefusal(answer.invite.expiresAt, minMembers)!.message;
      return replacing ? why : `${field}: ${why}`;
    }
    case 'paused':
      return `${field} cannot be used: this server has paused its invites. Resume invites in Discord, then try again.`;
    case 'wrong_guild':
      return replacing
        ? 'This invite opens another Discord server, not the one listed.'
        : `${L} must open a Discord server, not a group chat.`;
    default:
      return null;
  }
}

/** The 503 of a lookup that could not be made (Discord busy, rate limited, blocked, unreachable, budget spent). */
function unavailable(retryAfterMs: number | null): ApiError {
  return new ApiError(
    503,
    'discord_unavailable',
    'We cannot check the invite with Discord right now. Please try again in a minute.',
    undefined,
    { 'Retry-After': String(visitorRetryAfter(retryAfterMs)) },
  );
}

/** The 429 of a client past its own share: the others' checks go on. */
function shareSpent(retryAfterMs: number): ApiError {
  return new ApiError(429, 'invite_checks_spent', clientShareSpentMessage(), undefined, {
    'Retry-After': String(visitorRetryAfter(retryAfterMs)),
  });
}

/** How long an answer is reused for its code; 0 for one that says nothing of the invite. */
function cacheMsOf(answer: InviteAnswer): number {
  switch (answer.kind) {
    case 'ok':
      return INVITE_CHECKS.cacheMs.ok;
    case 'unknown_invite':
      return INVITE_CHECKS.cacheMs.unknown_invite;
    case 'expiring':
    case 'paused':
    case 'wrong_guild':
      return INVITE_CHECKS.cacheMs.refused;
    default:
      return 0;
  }
}

/** Whether Discord may be asked now, or until when (ms) it may not: the breaker or the spent budget. */
export type DiscordTurn = { ok: true } | { ok: false; until: number };

/**
 * Whether Discord may be asked on a person's behalf outside an invite check (#31: the membership
 * read of a review's sign-in): under the same breaker as every lookup, and spending the same
 * site-wide budget (its reserve for owners and first checks: the person is signing in). Not while
 * the breaker is open or the budget is spent: then `until` says when to try again.
 */
export async function mayAskDiscord(deps: AppDeps): Promise<DiscordTurn> {
  const now = deps.now?.() ?? Date.now();
  const breaker = await getJobState(deps.db, REFRESH_JOB);
  const blockedUntil = breaker?.blocked_until ? Date.parse(breaker.blocked_until) : Number.NaN;
  if (blockedUntil > now) return { ok: false, until: blockedUntil };
  if (!deps.env.RATE_LIMITS) return { ok: true };
  const spent = await spendSubmissionLookup(deps.db, INVITE_CHECK_BUDGET, now, {
    perWindow: inviteCheckCeiling(true),
    windowMs: BUDGET.windowMs,
  });
  return spent.ok ? { ok: true } : { ok: false, until: now + spent.retryAfterMs };
}

/**
 * Trips the shared breaker (the refresh job's) for an answer of Discord's that says stop (a 429, a
 * block page, an auth error), held as backoff.ts rules at the breaker's ladder `level`; returns the
 * hold, or null for an answer that says nothing of stopping. Every caller of Discord trips it the
 * same way: the invite checks and the review sign-in's member read.
 */
export async function holdDiscordFor(
  deps: AppDeps,
  answer: InviteAnswer,
  level?: number,
): Promise<(Hold & { until: number }) | null> {
  const now = deps.now?.() ?? Date.now();
  const hold = holdFor(answer, level ?? (await getJobState(deps.db, REFRESH_JOB))?.block_level ?? 0);
  if (!hold) return null;
  const until = now + hold.ms;
  await tripBreaker(deps.db, REFRESH_JOB, {
    blockedUntil: new Date(until).toISOString(),
    reason: hold.reason,
    level: hold.level,
  });
  return { ...hold, until };
}

/**
 * Discord's answer for `code`: a recent one from the cache, else one lookup, made only while the
 * breaker is closed, the client has its share left, and the site-wide budget (its reserve for an
 * owner or a client's first lookup) allows it. A 429 or a block page trips the refresh job's
 * breaker (clamped, backoff.ts), so nobody asks again too soon.
 */
async function answerFor(deps: AppDeps, code: string, options: InviteCheckOptions): Promise<InviteAnswer> {
  const now = deps.now?.() ?? Date.now();
  const cached = await getCachedInviteAnswer(deps.db, code, now);
  // The check on submit takes a working invite fresh from Discord (what is stored are Discord's
  // counts at submission); a refused code is never asked twice within its time, on any path.
  if (cached && !(options.form && cached.kind === 'ok')) return cached;

  const breaker = await getJobState(deps.db, REFRESH_JOB);
  const blockedUntil = breaker?.blocked_until ? Date.parse(breaker.blocked_until) : Number.NaN;
  if (blockedUntil > now) throw unavailable(blockedUntil - now);
  // The budget (off with the rate limits, for benchmarks): the client's share first, then the site's.
  if (deps.env.RATE_LIMITS) {
    const share = await spendClientBudget(deps.db, CLIENT_SHARE, options.client, now, {
      perWindow: INVITE_CHECKS.perClient,
      windowMs: BUDGET.windowMs,
    });
    if (!share.ok) throw shareSpent(share.retryAfterMs);
    const spent = await spendSubmissionLookup(deps.db, INVITE_CHECK_BUDGET, now, {
      perWindow: inviteCheckCeiling(options.owner === true || share.spentBefore === 0),
      windowMs: BUDGET.windowMs,
    });
    if (!spent.ok) throw unavailable(spent.retryAfterMs);
  }

  const answer = await discordFor(deps).lookupInvite(code);
  const hold = await holdDiscordFor(deps, answer, breaker?.block_level ?? 0);
  if (hold) throw unavailable(hold.ms);
  // Discord answering again ends the ladder (as the refresh job does).
  if (isDefinitive(answer) && (breaker?.block_level ?? 0) > 0) await clearBreaker(deps.db, REFRESH_JOB);
  const ttl = cacheMsOf(answer);
  if (ttl > 0) await cacheInviteAnswer(deps.db, code, answer, now, ttl);
  return answer;
}

/**
 * Checks an invite an owner typed: the code is read from the link (nothing asked of Discord for
 * anything that is not one), Discord's answer (answerFor) must be a working permanent invite to a
 * guild, and that guild neither listed nor waiting for review (or, replacing an invite, the
 * listing's own). Throws the answer's ApiError: 400 on `invite_link` (not an invite; unknown,
 * expiring, paused, a group chat, another guild), 409 (listed or pending), 429 (this client's
 * share spent), 503 with Retry-After (Discord could not be asked). `form` throws the submit form's
 * `validation_failed` with its summary instead of `invite_unusable`, and leaves the listed or
 * pending check to the guarded insert that follows (insertCheckedSubmission).
 */
export async function checkInvite(
  deps: AppDeps,
  typed: string,
  options: InviteCheckOptions,
): Promise<{ preview: InvitePreview; invite: InviteSnapshot; answer: InviteAnswer & { kind: 'ok' } }> {
  const { form = false } = options;
  const replacing = options.guildId !== undefined;
  const code = inviteCode(typed);
  const summary = form ? invalidFieldsSummary(['invite_link'], SUBMISSION_LABELS) : undefined;
  const kind = form ? 'validation_failed' : 'invite_unusable';
  if (!code)
    throw refused(
      kind,
      replacing
        ? 'Enter a Discord invite, like https://discord.gg/abc123.'
        : `${L} must be a Discord invite, like https://discord.gg/abc123.`,
      summary,
    );

  let answer = await answerFor(deps, code, options);
  // Replacing: the cached answer is the invite's, whichever guild the listing has.
  if (answer.kind === 'ok' && options.guildId && answer.invite.guildId !== options.guildId)
    answer = {
      kind: 'wrong_guild',
      expectedGuildId: options.guildId,
      guildId: answer.invite.guildId,
      name: answer.invite.name,
      rateLimit: null,
    };
  const minMembers = deps.env.MIN_MEMBERS;
  const why = refusal(answer, replacing, minMembers);
  if (why) throw refused(kind, why, summary);
  if (answer.kind !== 'ok') throw unavailable(null);

  const { invite } = answer;
  // The refusing requirements (#32) on submit and for a replacement invite; the live preview
  // carries the minimum instead, and the form checks it before sending.
  if (form || replacing) {
    const [failed] = inviteRefusals(invite, { minMembers, category: options.category });
    if (failed) throw refused(kind, replacing ? failed.message : `${L}: ${failed.message}`, summary);
  }
  // On submit the guarded insert (insertCheckedSubmission) is the check: no read before it.
  const taken = form || replacing ? null : await guildTaken(deps.db, invite.guildId);
  if (taken) throw alreadyThere(taken);
  return {
    invite,
    answer,
    preview: {
      code: invite.code,
      guild_id: invite.guildId,
      name: invite.name,
      icon: invite.icon,
      icon_url: guildIconUrl(invite.guildId, invite.icon),
      member_count: invite.memberCount ?? 0,
      online_count: invite.onlineCount ?? 0,
      min_members: minMembers,
    },
  };
}

/** The 409 of a guild already listed or waiting for review, with the message on the invite field. */
export function alreadyThere(taken: 'listed' | 'pending'): ApiError {
  const message =
    taken === 'listed'
      ? 'This Discord server is already listed on GuildRank. To change its listing, contact us.'
      : 'This Discord server has already been submitted and is waiting for review.';
  return new ApiError(409, taken === 'listed' ? 'already_listed' : 'already_submitted', message, [
    { path: 'invite_link', message },
  ]);
}
