import type { CheckOutcome, InviteStatus } from '../enums';
import type { InviteAnswer } from './classify';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** When a listing is looked at again, by what the last answer said (design note B2's table). */
export const SCHEDULE = {
  /** A working invite: daily. The base sits 10 % under 24 h so that its jitter (±10 %) never passes a day. */
  okMs: 21.6 * HOUR,
  /** ± this fraction of okMs, from the injected random: spreads the daily checks over the day. */
  okJitter: 0.1,
  /** Paused invites: the guild is alive; look again within the day. */
  pausedMs: 6 * HOUR,
  /** A temporary invite: at its expiry, or sooner. */
  expiringMaxMs: 6 * HOUR,
  /** Unknown invite, by the streak: the 1st, the 2nd, then every later one. */
  suspectMs: [1 * HOUR, 6 * HOUR, 24 * HOUR] as readonly number[],
  /** A dead listing is still checked daily, so it comes back by itself when the invite answers again. */
  deadMs: 24 * HOUR,
  wrongGuildMs: 24 * HOUR,
  /** Transient failures back off: 15 min, 30 min, 1 h … at most 6 h. */
  transientBaseMs: 15 * MINUTE,
  transientMaxMs: 6 * HOUR,
} as const;

/** Unknown-invite answers needed, and the time since the first of them, before a listing is dead. */
export const DEAD_AFTER = { failures: 3, ms: 24 * HOUR } as const;

/** The freshness fields of a listing, as stored (times as ISO text). */
export interface ListingFreshness {
  guild_id: string | null;
  guild_icon: string | null;
  invite_status: InviteStatus;
  members: number;
  active_users: number;
  last_ok_at: string | null;
  fail_streak: number;
  first_fail_at: string | null;
  transient_streak: number;
}

/** The columns a check writes on its listing; absent ones stay as they are. */
export interface ListingUpdate {
  guild_id?: string;
  guild_icon?: string | null;
  invite_status?: InviteStatus;
  members?: number;
  active_users?: number;
  last_checked_at?: string;
  last_ok_at?: string;
  fail_streak?: number;
  first_fail_at?: string | null;
  transient_streak?: number;
  next_check_at?: string;
}

/** The history row of a definitive check (server_snapshots). */
export interface SnapshotRow {
  checked_at: string;
  outcome: CheckOutcome;
  member_count: number | null;
  online_count: number | null;
}

/**
 * What a check asks of people: `wrong_guild` hides the listing and tells the operators; `dead`
 * tells the owner (recorded now; the mail comes with the mail issue).
 */
export type FreshnessAlert =
  | { kind: 'wrong_guild'; expectedGuildId: string | null; guildId: string | null }
  | { kind: 'dead'; failStreak: number; firstFailAt: string };

/** The result of one check on one listing. */
export interface CheckResult {
  update: ListingUpdate;
  /** Null for an answer that says nothing about the invite (transient, rate limit, block, auth). */
  snapshot: SnapshotRow | null;
  alerts: FreshnessAlert[];
  /** True when a fact the built pages show changed (status, counts, icon): the site needs a rebuild. */
  publicChange: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** ±jitter around `ms`, from a random number in [0, 1). */
const jittered = (ms: number, random: () => number) =>
  Math.round(ms * (1 - SCHEDULE.okJitter + 2 * SCHEDULE.okJitter * random()));

/**
 * The pure state machine of a listing's invite over time: the listing's freshness fields and one
 * classified lookup (classify.ts) at `now` give the listing's update, its history row and alerts.
 * Only definitive answers change the status: transient ones back off, and a rate limit, a block
 * page or an auth error leave the listing untouched (still due; the job's breaker waits instead).
 * `random` in [0, 1) spreads the daily checks (injected so tests can pin it).
 */
export function applyCheck(
  current: ListingFreshness,
  answer: InviteAnswer,
  now: number,
  random: () => number = Math.random,
): CheckResult {
  const at = iso(now);
  const none: CheckResult = { update: {}, snapshot: null, alerts: [], publicChange: false };
  const result = (update: ListingUpdate, snapshot: SnapshotRow, alerts: FreshnessAlert[] = []): CheckResult => ({
    update: { ...update, last_checked_at: at, transient_streak: 0 },
    snapshot,
    alerts,
    publicChange:
      (update.invite_status !== undefined && update.invite_status !== current.invite_status) ||
      (update.members !== undefined && update.members !== current.members) ||
      (update.active_users !== undefined && update.active_users !== current.active_users) ||
      (update.guild_icon !== undefined && update.guild_icon !== current.guild_icon),
  });

  switch (answer.kind) {
    case 'ok':
    case 'paused':
    case 'expiring': {
      const { invite } = answer;
      // Discord's counts are the listing's counts; an answer without them keeps the last known.
      const members = invite.memberCount ?? current.members;
      const online = invite.onlineCount ?? current.active_users;
      const next =
        answer.kind === 'ok'
          ? now + jittered(SCHEDULE.okMs, random)
          : answer.kind === 'paused'
            ? now + SCHEDULE.pausedMs
            : Math.max(now + MINUTE, Math.min(Date.parse(answer.invite.expiresAt), now + SCHEDULE.expiringMaxMs));
      return result(
        {
          // The first answer verifies the listing's guild; after that the guild never changes.
          ...(current.guild_id === null ? { guild_id: invite.guildId } : {}),
          guild_icon: invite.icon,
          invite_status: answer.kind,
          members,
          active_users: online,
          // Paused: the guild is there but nobody can join, so the invite is not "working".
          ...(answer.kind === 'paused' ? {} : { last_ok_at: at }),
          fail_streak: 0,
          first_fail_at: null,
          next_check_at: iso(next),
        },
        { checked_at: at, outcome: answer.kind, member_count: members, online_count: online },
      );
    }
    case 'unknown_invite': {
      const failStreak = current.fail_streak + 1;
      const firstFailAt = current.first_fail_at ?? at;
      const dead =
        current.invite_status === 'dead' ||
        (failStreak >= DEAD_AFTER.failures && now - Date.parse(firstFailAt) >= DEAD_AFTER.ms);
      const wait = dead ? SCHEDULE.deadMs : SCHEDULE.suspectMs[Math.min(failStreak, SCHEDULE.suspectMs.length) - 1]!;
      const alerts: FreshnessAlert[] =
        dead && current.invite_status !== 'dead' ? [{ kind: 'dead', failStreak, firstFailAt }] : [];
      return result(
        {
          invite_status: dead ? 'dead' : 'suspect',
          fail_streak: failStreak,
          first_fail_at: firstFailAt,
          next_check_at: iso(now + wait),
        },
        { checked_at: at, outcome: 'unknown_invite', member_count: null, online_count: null },
        alerts,
      );
    }
    case 'wrong_guild': {
      const alerts: FreshnessAlert[] =
        current.invite_status === 'wrong_guild'
          ? []
          : [{ kind: 'wrong_guild', expectedGuildId: answer.expectedGuildId, guildId: answer.guildId }];
      return result(
        { invite_status: 'wrong_guild', next_check_at: iso(now + SCHEDULE.wrongGuildMs) },
        { checked_at: at, outcome: 'wrong_guild', member_count: null, online_count: null },
        alerts,
      );
    }
    case 'transient': {
      const streak = current.transient_streak + 1;
      const wait = Math.min(SCHEDULE.transientBaseMs * 2 ** (streak - 1), SCHEDULE.transientMaxMs);
      return { ...none, update: { transient_streak: streak, next_check_at: iso(now + wait) } };
    }
    default:
      // rate_limited, blocked, auth_error: about us, not the invite.
      return none;
  }
}
