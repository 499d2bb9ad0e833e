// The submission check (#15): what Discord says of an owner's invite, run by the form's live
// lookup (GET /api/invites/:code) and again on submit (POST /api/submissions), so an invite is
// never accepted unchecked. Only a permanent invite to a guild that is neither listed nor waiting
// for review passes; when Discord cannot be asked, the answer is a 503, never a guess.
import { getJobState } from '../../../db/queries/freshness';
import { guildTaken, spendSubmissionLookup } from '../../../db/queries/submissions';
import { BUDGET } from '../../../src/lib/invite-checks/budget';
import type { InviteAnswer, InviteSnapshot } from '../../../src/lib/invite-checks/classify';
import { guildIconUrl } from '../../../src/lib/invite-checks/guild-icon';
import { inviteCode } from '../../../src/lib/invite-checks/invite-code';
import { invalidFieldsSummary, SUBMISSION_LABELS } from '../../../src/lib/schemas/labels';
import { discordFor } from '../clients/discord';
import type { AppDeps } from '../context';
import { REFRESH_JOB } from '../jobs/refresh';
import { ApiError } from './errors';

/** Seconds to wait when Discord could not be asked and said nothing of when to ask again. */
const DISCORD_RETRY_AFTER_S = 30;

const L = SUBMISSION_LABELS.invite_link;

/**
 * The submission checks' 40 lookups per 10 minutes (BUDGET), split so that spending the public live
 * check's share (no bot check in front of it) never stops a real submission's check on submit.
 */
export const CHECK_BUDGETS = {
  submit: { name: 'submission-checks', perWindow: 15 },
  live: { name: 'invite-previews', perWindow: BUDGET.submissionsPerWindow - 15 },
} as const;

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
}

/** The 400 of an invite Discord refuses, on the invite field (`code` names the envelope). */
const refused = (code: 'invite_unusable' | 'validation_failed', message: string, summary?: string) =>
  new ApiError(400, code, summary ?? message, [{ path: 'invite_link', message }]);

/** Why Discord's answer refuses the invite; null when it is a working, permanent guild invite. */
function refusal(answer: InviteAnswer): string | null {
  switch (answer.kind) {
    case 'ok':
      return null;
    case 'unknown_invite':
      return `${L}: Discord does not know this invite (it expired or was deleted). Create a new invite set to never expire.`;
    case 'expiring':
      return `${L} expires (${answer.invite.expiresAt.slice(0, 16).replace('T', ' ')} UTC): in Discord, create an invite set to never expire.`;
    case 'paused':
      return `${L} cannot be used: this server has paused its invites. Resume invites in Discord, then try again.`;
    case 'wrong_guild':
      return `${L} must open a Discord server, not a group chat.`;
    default:
      return null;
  }
}

/** The 503 of a lookup that could not be made (Discord busy, rate limited, blocked, unreachable). */
function unavailable(retryAfterMs: number | null): ApiError {
  const seconds = Math.max(1, Math.ceil((retryAfterMs ?? DISCORD_RETRY_AFTER_S * 1000) / 1000));
  return new ApiError(
    503,
    'discord_unavailable',
    'We cannot check the invite with Discord right now. Please try again in a minute.',
    undefined,
    { 'Retry-After': String(seconds) },
  );
}

/**
 * Checks what an owner typed as an invite: the code is read from the link, Discord is asked once
 * (unless the refresh job's breaker says the site is blocked: asking again would only prolong it;
 * or this kind of check's share of the 40 lookups per 10 minutes is spent, CHECK_BUDGETS), and the
 * guild must be neither listed nor waiting for review. Throws the answer's ApiError: 400 on
 * `invite_link` (not an invite; unknown, expiring, paused, a group chat), 409 (listed or pending),
 * 503 with Retry-After (Discord could not be asked). `form` (the check on submit) throws the submit
 * form's `validation_failed` with its summary instead of `invite_unusable`, and leaves the listed or
 * pending check to the guarded insert that follows (insertCheckedSubmission).
 */
export async function checkInvite(
  deps: AppDeps,
  typed: string,
  { form = false }: { form?: boolean } = {},
): Promise<{ preview: InvitePreview; invite: InviteSnapshot }> {
  const code = inviteCode(typed);
  const summary = form ? invalidFieldsSummary(['invite_link'], SUBMISSION_LABELS) : undefined;
  const kind = form ? 'validation_failed' : 'invite_unusable';
  if (!code) throw refused(kind, `${L} must be a Discord invite, like https://discord.gg/abc123.`, summary);

  const now = deps.now?.() ?? Date.now();
  const breaker = await getJobState(deps.db, REFRESH_JOB);
  const blockedUntil = breaker?.blocked_until ? Date.parse(breaker.blocked_until) : Number.NaN;
  if (blockedUntil > now) throw unavailable(blockedUntil - now);
  // The submission checks' share of the site's Discord budget (off with the rate limits, for benchmarks).
  if (deps.env.RATE_LIMITS) {
    const budget = form ? CHECK_BUDGETS.submit : CHECK_BUDGETS.live;
    const spent = await spendSubmissionLookup(deps.db, budget.name, now, {
      perWindow: budget.perWindow,
      windowMs: BUDGET.windowMs,
    });
    if (!spent.ok) throw unavailable(spent.retryAfterMs);
  }

  const answer = await discordFor(deps).lookupInvite(code);
  const why = refusal(answer);
  if (why) throw refused(kind, why, summary);
  if (answer.kind !== 'ok') {
    const wait = answer.kind === 'rate_limited' || answer.kind === 'blocked' ? answer.retryAfterMs : null;
    throw unavailable(wait);
  }

  const { invite } = answer;
  // On submit the guarded insert (insertCheckedSubmission) is the check: no read before it.
  const taken = form ? null : await guildTaken(deps.db, invite.guildId);
  if (taken) throw alreadyThere(taken);
  return {
    invite,
    preview: {
      code: invite.code,
      guild_id: invite.guildId,
      name: invite.name,
      icon: invite.icon,
      icon_url: guildIconUrl(invite.guildId, invite.icon),
      member_count: invite.memberCount ?? 0,
      online_count: invite.onlineCount ?? 0,
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
