// Who may review a listing (#31): pure rules over what Discord said of the person (their account's
// age from the snowflake, their membership from the guild list and the member endpoint) and of the
// listing (its claimed owner). Each refusal names its rule and, where waiting helps, the date from
// which the person may review.

/** Discord's epoch (the first second of 2015, UTC), in ms: snowflakes count from it. */
export const DISCORD_EPOCH_MS = 1_420_070_400_000;
const DAY_MS = 86_400_000;

/** A reviewer's Discord account must be at least this many days old. */
export const REVIEW_MIN_ACCOUNT_DAYS = 30;

/** When a Discord id (a snowflake) was made, in ms since 1970; null for something that is not a snowflake. */
export function snowflakeTime(id: string): number | null {
  if (!/^\d{1,20}$/.test(id)) return null;
  const value = BigInt(id);
  if (value >= 1n << 64n) return null;
  return Number(value >> 22n) + DISCORD_EPOCH_MS;
}

/** What Discord said of a person and a listing's guild, as a review is checked against it. */
export interface ReviewerFacts {
  /** The person's Discord user id (a snowflake): the account's age. */
  discordUserId: string;
  /** In the listing's guild now (the guild in their guild list). */
  member: boolean;
  /** Owns the guild ('owner') or holds Manage Server or Administrator there ('manage_guild'), by their guild list. */
  role: 'owner' | 'manage_guild' | null;
  /** The listing's claimed owner on this site. */
  claimedOwner: boolean;
  /** When they joined the guild (`joined_at` of the member endpoint), ISO; null when unknown. */
  joinedAt: string | null;
}

/** Why a review is refused: the rule's code, the sentence the page shows, and from when they may review. */
export type ReviewRefusal = {
  rule: 'not_member' | 'owner' | 'manager' | 'member_too_new' | 'account_too_new' | 'membership_unknown';
  message: string;
  /** The first moment the person may review (ms), or null when waiting will not help. */
  from: number | null;
};

// Built once: `toLocaleDateString` with options builds a formatter on every call (about 0.1 ms),
// and a server page prints one date per review it shows (docs/SCALING.md, issue 35).
const dayMonthYear = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "14 Dec 2026", in UTC: the day a person may review from. */
export function reviewDate(ms: number): string {
  return dayMonthYear.format(new Date(ms));
}

/** "3 days" / "1 day" / "less than a day": how long ago something was, in whole days. */
export function daysAgo(since: number, now: number): string {
  const days = Math.floor(Math.max(0, now - since) / DAY_MS);
  if (days === 0) return 'less than a day';
  return days === 1 ? '1 day' : `${days} days`;
}

/**
 * Null when the person may review the listing at `now`, else the first rule that refuses
 * (the guild's owner and managers and the listing's claimed owner first: they reply instead; then membership, the member's days in the
 * guild, and the account's age). `minMemberDays` is REVIEW_MIN_MEMBER_DAYS.
 */
export function reviewRefusal(facts: ReviewerFacts, now: number, minMemberDays: number): ReviewRefusal | null {
  if (facts.role === 'owner')
    return {
      rule: 'owner',
      message: 'You own this server on Discord: owners cannot review it, but they can reply to its reviews.',
      from: null,
    };
  if (facts.role === 'manage_guild')
    return {
      rule: 'manager',
      message: 'You have Manage Server in this Discord server: its managers cannot review it.',
      from: null,
    };
  if (facts.claimedOwner)
    return {
      rule: 'owner',
      message: 'You are the owner of this listing: owners cannot review it, but they can reply to its reviews.',
      from: null,
    };
  if (!facts.member)
    return {
      rule: 'not_member',
      message: 'Only members of this server can review it: Discord does not list you in it.',
      from: null,
    };
  const joined = facts.joinedAt ? Date.parse(facts.joinedAt) : Number.NaN;
  if (!Number.isFinite(joined))
    return {
      rule: 'membership_unknown',
      message: 'Discord did not say when you joined this server: sign in again to check.',
      from: null,
    };
  const memberFrom = joined + minMemberDays * DAY_MS;
  if (now < memberFrom)
    return {
      rule: 'member_too_new',
      message: `Reviews need ${minMemberDays} days of membership: you joined ${daysAgo(joined, now)} ago, so you can review from ${reviewDate(memberFrom)}.`,
      from: memberFrom,
    };
  const created = snowflakeTime(facts.discordUserId);
  if (created === null)
    return { rule: 'account_too_new', message: 'Discord did not give a valid account id.', from: null };
  const accountFrom = created + REVIEW_MIN_ACCOUNT_DAYS * DAY_MS;
  if (now < accountFrom)
    return {
      rule: 'account_too_new',
      message: `Reviews need a Discord account at least ${REVIEW_MIN_ACCOUNT_DAYS} days old: yours was made ${daysAgo(created, now)} ago, so you can review from ${reviewDate(accountFrom)}.`,
      from: accountFrom,
    };
  return null;
}
