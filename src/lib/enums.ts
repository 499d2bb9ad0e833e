/** Enumerations of the spec, defined once; schemas, filters and form options read them. */

export const SUBMISSION_STATUSES = ['pending', 'under_review', 'approved', 'rejected'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];
/** The statuses a reviewer sets by hand: approval is its own action (it creates the listing). */
export const SUBMISSION_REVIEW_STATUSES = SUBMISSION_STATUSES.filter(
  (s): s is Exclude<SubmissionStatus, 'approved'> => s !== 'approved',
) as [Exclude<SubmissionStatus, 'approved'>, ...Exclude<SubmissionStatus, 'approved'>[]];

/**
 * Why a visitor reports a server. The general reasons apply to every listing; a reason with
 * `categories` (#15's niche ones: design note B5) is offered only on the listings of those
 * categories, by display name (reportReasonsFor).
 */
export const REPORT_REASONS = [
  { value: 'inappropriate_content', label: 'Inappropriate content' },
  { value: 'spam', label: 'Spam or scam' },
  { value: 'broken_link', label: 'Broken invite link' },
  { value: 'misleading_info', label: 'Misleading information' },
  { value: 'inactive_server', label: 'Inactive server' },
  {
    value: 'scam_pump_and_dump',
    label: 'Scam or pump-and-dump',
    categories: ['Crypto', 'Trading', 'Investing'],
  },
  {
    value: 'impersonation',
    label: 'Impersonates staff, a project or an exchange',
    categories: ['Crypto', 'Trading', 'Investing', 'Sports Betting'],
  },
  {
    value: 'paid_signals_undisclosed',
    label: 'Paid signals or picks without disclosure',
    categories: ['Crypto', 'Trading', 'Investing', 'Sports Betting'],
  },
  { value: 'underage_gambling', label: 'Underage gambling', categories: ['Sports Betting'] },
  { value: 'other', label: 'Other' },
] as const satisfies readonly { value: string; label: string; categories?: readonly string[] }[];
export const REPORT_REASON_VALUES = REPORT_REASONS.map((r) => r.value) as [
  (typeof REPORT_REASONS)[number]['value'],
  ...(typeof REPORT_REASONS)[number]['value'][],
];
export type ReportReason = (typeof REPORT_REASONS)[number]['value'];

/** The report reasons offered on a listing of `category` (display name): the general ones and its niche's. */
export const reportReasonsFor = (category: string) =>
  REPORT_REASONS.filter((r) => !('categories' in r) || (r.categories as readonly string[]).includes(category));

export const REPORT_STATUSES = ['open', 'resolved', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
/** What an operator does with a report: close it either way, or hide the server it is about. */
export const REPORT_ACTIONS = ['resolve', 'dismiss', 'hide_server'] as const;
export type ReportAction = (typeof REPORT_ACTIONS)[number];

export const CONTACT_SUBJECTS = [
  { value: 'general', label: 'General inquiry' },
  { value: 'server-submission', label: 'Server submission' },
  { value: 'billing', label: 'Billing' },
  { value: 'technical', label: 'Technical support' },
  { value: 'partnership', label: 'Partnership' },
  // Where the premium call to action leads: a message with this subject is the premium conversion.
  { value: 'premium', label: 'Premium or Sponsored placement' },
  { value: 'feedback', label: 'Feedback' },
] as const;
export const CONTACT_SUBJECT_VALUES = CONTACT_SUBJECTS.map((s) => s.value) as [
  (typeof CONTACT_SUBJECTS)[number]['value'],
  ...(typeof CONTACT_SUBJECTS)[number]['value'][],
];

export const CONTACT_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const CONTACT_STATUSES = ['new', 'read', 'replied', 'archived'] as const;

/**
 * Newsletter subscribers (#16, double opt-in): `pending` until the confirmation link is followed
 * (gets nothing but that link), then `active`; `unsubscribed` after one click.
 */
export const NEWSLETTER_STATUSES = ['pending', 'active', 'unsubscribed'] as const;
export type NewsletterStatus = (typeof NEWSLETTER_STATUSES)[number];

/**
 * A mail in the outbox (#16): `pending` (waiting, or retrying after a failure, at next_attempt_at),
 * `sent` (the mail server accepted it), `failed` (refused for good, e.g. a 5xx for the recipient).
 */
export const MAIL_STATUSES = ['pending', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** What a mail of the outbox is (#16): one template each (functions/_app/mail/). */
export const MAIL_KINDS = [
  'submission_received',
  'submission_approved',
  'submission_rejected',
  'invite_dead',
  'contact_message',
  'contact_ack',
  'newsletter_confirm',
  'newsletter_welcome',
  'newsletter_issue',
  'order_receipt',
  'placement_reminder',
  'placement_ended',
  'order_refunded',
  'order_partially_refunded',
  'placement_moved',
  'review_new',
  'review_reply',
  'review_hidden',
  'listing_hidden',
  'appeal_received',
  'appeal_decided',
  'webhook_disabled',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** A moderator's decision that can be appealed (#32): a submission rejected, a live listing hidden. */
export const DECISION_KINDS = ['rejection', 'hide'] as const;
export type DecisionKind = (typeof DECISION_KINDS)[number];

/** What an appeal's review decides: the decision stands (upheld) or is undone (overturned). */
export const APPEAL_OUTCOMES = ['upheld', 'overturned'] as const;
export type AppealOutcome = (typeof APPEAL_OUTCOMES)[number];

/** An owner's edit of a listing (#17), reviewed like a submission. */
export const EDIT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type EditStatus = (typeof EDIT_STATUSES)[number];

/** How a signed-in owner proved a listing is theirs (#17): Discord's owner flag or the Manage Server bit. */
export const CLAIM_PROOFS = ['owner', 'manage_guild'] as const;
export type ClaimProof = (typeof CLAIM_PROOFS)[number];

/** Operator roles: admin does everything, moderator handles submissions, reports and visibility. */
export const OPERATOR_ROLES = ['admin', 'moderator'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/**
 * Kinds of analytics rows: view, click, signup and conversion, and the visitor
 * actions of section 7 (save, unsave, share, report) as kinds of their own, so a save is never
 * counted as a click. The column is plain text: adding a kind needs no migration.
 */
export const INTERACTION_TYPES = [
  'view',
  'click',
  'signup',
  'conversion',
  'save',
  'unsave',
  'share',
  'report',
] as const;
export type InteractionType = (typeof INTERACTION_TYPES)[number];
export const TARGET_TYPES = ['server', 'newsletter', 'premium_cta'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

/**
 * Conversion values, the only rows worth anything: a join click on a server
 * (1, 5 when it is premium or sponsored), a newsletter signup (2) and a premium call-to-action
 * click (10). Every other row (views, saves, shares, reports, the premium enquiry that is a
 * conversion) is stored without a value, i.e. worth 0.
 */
export const CONVERSION_VALUES: readonly {
  type: InteractionType;
  target: TargetType;
  value: number;
  premium?: number;
}[] = [
  { type: 'click', target: 'server', value: 1, premium: 5 },
  { type: 'signup', target: 'newsletter', value: 2 },
  { type: 'click', target: 'premium_cta', value: 10 },
];

/** The conversion value of an event (a view is worth nothing), or null (worth 0). */
export function conversionValue(type: InteractionType, target: TargetType, isPremium = false): number | null {
  const entry = CONVERSION_VALUES.find((c) => c.type === type && c.target === target);
  if (!entry) return null;
  return isPremium ? (entry.premium ?? entry.value) : entry.value;
}

/** Where the premium call to action is shown; `/cta/premium?from=` names one (else it is recorded without). */
export const PREMIUM_CTA_PLACES = ['help', 'submit', 'listing'] as const;
export type PremiumCtaPlace = (typeof PREMIUM_CTA_PLACES)[number];

/**
 * Sort orders of the listing: the four the sort menus offer (Most Members, the default; Most
 * Active by rank score; Newest; Growing by 30-day member growth), and the curated order of Premium Picks.
 */
export const SORT_ORDERS = ['members', 'active', 'newest', 'growing', 'featured'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** Page sizes and limits: featured 6, home list 9, premium grid 6, structured data 10, card tags 3. */
export const LIMITS = {
  featured: 6,
  homeList: 9,
  premiumGrid: 6,
  structuredData: 10,
  cardTags: 3,
  categoryPageSize: 24,
  funnelDays: 7,
  analyticsDays: 30,
} as const;

/** The product's name, appended to page titles. */
export const SITE_NAME = 'GuildRank';

/**
 * What Discord last said of a listing's invite (src/lib/invite-checks): `unchecked` before the first
 * check; `ok`; `paused` (the server's admins paused invites); `expiring` (a temporary invite);
 * `suspect` (Discord stopped knowing it: the Join button gives way to a notice while we check
 * again); `dead` (unknown on repeated checks over at least 24 hours: off every listing until it
 * answers again); `wrong_guild` (it now opens another server: hidden at once, operators alerted).
 */
export const INVITE_STATUSES = ['unchecked', 'ok', 'paused', 'expiring', 'suspect', 'dead', 'wrong_guild'] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];

/** The outcome of one definitive invite check, stored in its history row. */
export const CHECK_OUTCOMES = ['ok', 'paused', 'expiring', 'unknown_invite', 'wrong_guild'] as const;
export type CheckOutcome = (typeof CHECK_OUTCOMES)[number];

/** A moderator's verdict on an anomaly flag: only confirmed flags show publicly. */
export const FLAG_VERDICTS = ['confirmed', 'dismissed'] as const;
export type FlagVerdict = (typeof FLAG_VERDICTS)[number];

/** What a plan sells (#30): premium (badges, Premium Picks) or sponsored (also capped per category). */
export const PLACEMENTS = ['premium', 'sponsored'] as const;
export type Placement = (typeof PLACEMENTS)[number];

/**
 * An order of a placement (#30), moved only by the order machine (src/lib/pricing/order-machine.ts):
 * `open` (checkout started), `paid` (money in: the slot runs, or waits for its scheduled start),
 * `expired` (checkout left unpaid), `failed` (a delayed payment failed), `refunded`, `disputed`
 * (placement suspended), `ended` (the term is over).
 */
export const ORDER_STATES = ['open', 'paid', 'expired', 'failed', 'refunded', 'disputed', 'ended'] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** How an order came: a Stripe Checkout payment, or an operator's free grant (a comp, audited). */
export const ORDER_KINDS = ['checkout', 'comp'] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];

/**
 * Where a review stands (#31): `shown` on the listing's page, `held` for a moderator (a burst of new
 * reviews of one listing), `hidden` by a moderator with a public reason.
 */
export const REVIEW_STATUSES = ['shown', 'held', 'hidden'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** Why someone flags a review (#31): the reasons the flag form offers. */
export const REVIEW_FLAG_REASONS = [
  { value: 'off_topic', label: 'Off-topic' },
  { value: 'spam', label: 'Spam or advertising' },
  { value: 'abuse', label: 'Abusive or hateful' },
  { value: 'fake', label: 'Not a real member or bought' },
  { value: 'personal_info', label: 'Personal information' },
  { value: 'other', label: 'Other' },
] as const;
export type ReviewFlagReason = (typeof REVIEW_FLAG_REASONS)[number]['value'];
