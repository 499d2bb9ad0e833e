/**
 * The listing requirements (#32), defined once: the submit check and an owner's replacement invite
 * (functions/_app/lib/invite-check.ts), the submit form's check of the invite preview, the
 * console's review screen (the flags), the public /requirements page and the FAQ all read this
 * module, so nothing states a rule the code does not apply. A rule either refuses (the invite
 * facts Discord gives: member count, a permanent invite, age restriction; the category) or, where
 * it needs judgement (the niche phrases), flags the submission for the reviewer with the matched
 * words. Pure data and functions: runs in the browser too.
 */

import { CATEGORY_NAMES } from '../categories';
import { matchPhrases, type PhraseMatch } from './phrases';

export { highlight, matchPhrases, type PhraseMatch, type TextSegment } from './phrases';

/** The default of the MIN_MEMBERS setting: the member count Discord must give a server to be listed. */
export const DEFAULT_MIN_MEMBERS = 50;

/** The requirements' ids: each is the anchor of its section on /requirements. */
export const REQUIREMENT_IDS = [
  'members',
  'permanent-invite',
  'not-age-restricted',
  'category',
  'no-promised-returns',
  'betting-18-plus',
] as const;
export type RequirementId = (typeof REQUIREMENT_IDS)[number];

/** What a rule does to a submission that fails it: refuse it, or flag it for the reviewer. */
export type Enforcement = 'refused' | 'flagged';

/** One requirement as the site states it. */
export interface Requirement {
  id: RequirementId;
  title: string;
  /** What it asks, in a sentence or two. */
  text: string;
  enforcement: Enforcement;
  /** The categories it applies to (display names); absent: every category. */
  categories?: readonly string[];
}

/** The categories whose servers may be age-restricted on Discord: sports betting is for adults only. */
export const ADULT_CATEGORIES = ['Sports Betting'] as const;
/** The categories where a promise of returns is flagged. */
export const RETURNS_CATEGORIES = ['Crypto', 'Trading', 'Investing'] as const;
/** The categories that must state an 18+ age limit. */
export const AGE_STATEMENT_CATEGORIES = ['Sports Betting'] as const;

/** Where a requirement is explained: its section of /requirements. */
export const requirementHref = (id: RequirementId): string => `/requirements#${id}`;

/** Every requirement, in the order /requirements and the FAQ state them; `minMembers` is the MIN_MEMBERS setting. */
export function requirements(minMembers: number): Requirement[] {
  const min = minMembers.toLocaleString('en-US');
  return [
    {
      id: 'members',
      title: `At least ${min} members`,
      text: `Discord's own member count for the invite must be at least ${min} when you submit and when you replace the invite. The submit form checks it as soon as you paste the invite.`,
      enforcement: 'refused',
    },
    {
      id: 'permanent-invite',
      title: 'A permanent invite',
      text: 'The invite must be set to never expire. An invite with an expiry date is refused, and so is one Discord does not know or one whose server has paused invites.',
      enforcement: 'refused',
    },
    {
      id: 'not-age-restricted',
      title: 'Not age-restricted',
      text: `A server Discord marks as age-restricted is refused in every category except ${ADULT_CATEGORIES.join(', ')}, which is for adults only.`,
      enforcement: 'refused',
    },
    {
      id: 'category',
      title: 'One of our five categories',
      text: `The server must fit one of ${CATEGORY_NAMES.join(', ')}.`,
      enforcement: 'refused',
    },
    {
      id: 'no-promised-returns',
      title: 'No promise of returns',
      text: `In ${RETURNS_CATEGORIES.join(', ')}, the description and features must not promise returns ("guaranteed profit", "100% win rate", "risk-free" and the like). Such words do not refuse a submission: they flag it, and the moderator sees them highlighted and decides.`,
      enforcement: 'flagged',
      categories: RETURNS_CATEGORIES,
    },
    {
      id: 'betting-18-plus',
      title: 'An 18+ statement for sports betting',
      text: 'In Sports Betting, the description or features must say the server is for people aged 18 or over (for example "18+"). Without one the submission is flagged for the moderator, who decides.',
      enforcement: 'flagged',
      categories: AGE_STATEMENT_CATEGORIES,
    },
  ];
}

/** One requirement by id. */
export const requirementById = (id: RequirementId, minMembers: number): Requirement =>
  requirements(minMembers).find((r) => r.id === id)!;

/** The FAQ's answer to "What are the requirements?": every requirement's title, and where they are explained. */
export function requirementsSummary(minMembers: number): string {
  const all = requirements(minMembers);
  const refused = all.filter((r) => r.enforcement === 'refused').map((r) => r.title.toLowerCase());
  const flagged = all.filter((r) => r.enforcement === 'flagged');
  return `A server must have ${refused.join(', ')}: a submission or replacement invite that fails one of these is refused, naming the requirement. ${flagged.map((r) => `${r.title} (${r.categories!.join(', ')})`).join(' and ')} are checked by a moderator: the submission is flagged, not refused. The requirements page (/requirements) explains each.`;
}

/** A refused requirement: which, and the sentence the form shows (ending with where it is explained). */
export interface RequirementRefusal {
  rule: RequirementId;
  message: string;
  href: string;
}

const refusal = (rule: RequirementId, why: string, minMembers: number): RequirementRefusal => ({
  rule,
  href: requirementHref(rule),
  message: `${why} Requirement: ${requirementById(rule, minMembers).title} (${requirementHref(rule)}).`,
});

/** Discord's age-restricted levels (GUILD_NSFW_LEVEL): EXPLICIT 1 and AGE_RESTRICTED 3. */
export const AGE_RESTRICTED_LEVELS: readonly number[] = [1, 3];

/** The refusal of a member count under the minimum, or null. The submit form runs it on the invite preview. */
export function membersRefusal(memberCount: number | null, minMembers: number): RequirementRefusal | null {
  if ((memberCount ?? 0) >= minMembers) return null;
  return refusal(
    'members',
    `Discord counts ${(memberCount ?? 0).toLocaleString('en-US')} members for this invite; a listed server needs at least ${minMembers.toLocaleString('en-US')}.`,
    minMembers,
  );
}

/** The refusal of an invite with an expiry (ISO time), or null for a permanent one. */
export function permanentInviteRefusal(expiresAt: string | null, minMembers: number): RequirementRefusal | null {
  if (!expiresAt) return null;
  return refusal(
    'permanent-invite',
    `This invite expires (${expiresAt.slice(0, 16).replace('T', ' ')} UTC): in Discord, create an invite set to never expire.`,
    minMembers,
  );
}

/** The refusal of an age-restricted server in a category that is not for adults, or null. */
export function ageRestrictionRefusal(
  nsfwLevel: number | null,
  category: string,
  minMembers: number,
): RequirementRefusal | null {
  if (nsfwLevel === null || !AGE_RESTRICTED_LEVELS.includes(nsfwLevel)) return null;
  if ((ADULT_CATEGORIES as readonly string[]).includes(category)) return null;
  return refusal(
    'not-age-restricted',
    `Discord marks this server as age-restricted, which ${category} listings may not be.`,
    minMembers,
  );
}

/** What Discord says of an invite that the refusing requirements read. */
export interface InviteFacts {
  memberCount: number | null;
  expiresAt: string | null;
  nsfwLevel: number | null;
}

/**
 * The refusing requirements an invite fails, first one first: its expiry, its member count and
 * (with a category) its age restriction. Empty: the invite meets them.
 */
export function inviteRefusals(
  facts: InviteFacts,
  { minMembers, category }: { minMembers: number; category?: string | null | undefined },
): RequirementRefusal[] {
  return [
    permanentInviteRefusal(facts.expiresAt, minMembers),
    membersRefusal(facts.memberCount, minMembers),
    category ? ageRestrictionRefusal(facts.nsfwLevel, category, minMembers) : null,
  ].filter((r): r is RequirementRefusal => r !== null);
}

/**
 * Promises of returns (no-promised-returns): guaranteed gains, a near-perfect win rate, "risk-free"
 * and no-loss wording, multiplied money, fixed percentage returns per period.
 */
export const RETURN_PROMISES: readonly RegExp[] = [
  /\bguarantee(?:d|s)?\s+(?:\w+\s+)?(?:profits?|returns?|gains?|income|wins?|winnings|money|roi|results?)\b/,
  /\b(?:profits?|returns?|gains?|income|wins?|results?)\s+(?:are\s+|is\s+)?guaranteed\b/,
  /\b(?:100|9\d(?:\.\d+)?)\s?%\s+(?:win(?:ning)?\s+rate|accuracy|accurate|success(?:\s+rate)?|win)\b/,
  /\brisk[-\s]?free\b/,
  /\b(?:no|zero)[-\s]risk\b/,
  /\b(?:can(?:no|')t|never)\s+lose\b/,
  /\b(?:double|triple|10x|100x)\s+your\s+(?:money|investment|portfolio|account|capital)\b/,
  /\b\d+(?:\.\d+)?\s?%\s+(?:daily|weekly|monthly)\s+(?:returns?|profits?|gains?|roi)\b/,
  /\bsure[-\s](?:profit|win|bet|thing)s?\b/,
];

/** An 18+ statement (betting-18-plus): "18+", "18 or older", "over 18", "adults only", "21+"... */
export const AGE_STATEMENTS: readonly RegExp[] = [
  /(?<!\d)(?:18|21)\s?\+/,
  /\b(?:18|21)\s+(?:years?\s+(?:old\s+)?)?(?:or|and)\s+(?:older|over|above)\b/,
  /\b(?:over|aged?|at\s+least)\s+(?:18|21)\b/,
  /\badults?\s+only\b/,
];

/** The submission texts the niche rules read. */
export const FLAGGED_FIELDS = ['server_description', 'features'] as const;
export type FlaggedField = (typeof FLAGGED_FIELDS)[number];

/** A flag for the reviewer: which rule, why, and the matched words of each field (empty when the flag is a missing statement). */
export interface RequirementFlag {
  rule: RequirementId;
  message: string;
  href: string;
  fields: { field: FlaggedField; text: string; matches: PhraseMatch[] }[];
}

/** The texts of a submission or listing the niche rules read. */
export interface FlaggableText {
  category: string;
  server_description: string;
  features: string | null;
}

/**
 * The flags of the niche rules (never a refusal): in crypto, trading and investing each promise
 * of returns with its words; in sports betting a missing 18+ statement.
 */
export function phraseFlags(input: FlaggableText): RequirementFlag[] {
  const texts = FLAGGED_FIELDS.map((field) => ({ field, text: input[field] ?? '' }));
  const flags: RequirementFlag[] = [];
  if ((RETURNS_CATEGORIES as readonly string[]).includes(input.category)) {
    const fields = texts
      .map((t) => ({ ...t, matches: matchPhrases(t.text, RETURN_PROMISES) }))
      .filter((t) => t.matches.length > 0);
    if (fields.length > 0)
      flags.push({
        rule: 'no-promised-returns',
        href: requirementHref('no-promised-returns'),
        message: `Promises returns: ${[...new Set(fields.flatMap((f) => f.matches.map((m) => `"${m.text}"`)))].join(', ')}.`,
        fields,
      });
  }
  if ((AGE_STATEMENT_CATEGORIES as readonly string[]).includes(input.category)) {
    const stated = texts.some((t) => matchPhrases(t.text, AGE_STATEMENTS).length > 0);
    if (!stated)
      flags.push({
        rule: 'betting-18-plus',
        href: requirementHref('betting-18-plus'),
        message: 'No 18+ statement in the description or features.',
        fields: [],
      });
  }
  return flags;
}
