/** Enumerations of the spec, defined once; schemas, filters and form options read them. */

export const SUBMISSION_STATUSES = ['pending', 'under_review', 'approved', 'rejected'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

export const REPORT_REASONS = [
  { value: 'inappropriate_content', label: 'Inappropriate content' },
  { value: 'spam', label: 'Spam or scam' },
  { value: 'broken_link', label: 'Broken invite link' },
  { value: 'misleading_info', label: 'Misleading information' },
  { value: 'inactive_server', label: 'Inactive server' },
  { value: 'other', label: 'Other' },
] as const;
export const REPORT_REASON_VALUES = REPORT_REASONS.map((r) => r.value) as [
  (typeof REPORT_REASONS)[number]['value'],
  ...(typeof REPORT_REASONS)[number]['value'][],
];
export type ReportReason = (typeof REPORT_REASONS)[number]['value'];

export const REPORT_STATUSES = ['open', 'resolved', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const CONTACT_SUBJECTS = [
  { value: 'general', label: 'General inquiry' },
  { value: 'server-submission', label: 'Server submission' },
  { value: 'billing', label: 'Billing' },
  { value: 'technical', label: 'Technical support' },
  { value: 'partnership', label: 'Partnership' },
  { value: 'feedback', label: 'Feedback' },
] as const;
export const CONTACT_SUBJECT_VALUES = CONTACT_SUBJECTS.map((s) => s.value) as [
  (typeof CONTACT_SUBJECTS)[number]['value'],
  ...(typeof CONTACT_SUBJECTS)[number]['value'][],
];

export const CONTACT_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const CONTACT_STATUSES = ['new', 'read', 'replied', 'archived'] as const;

export const NEWSLETTER_STATUSES = ['active', 'unsubscribed'] as const;

export const INTERACTION_TYPES = ['view', 'click', 'signup', 'conversion'] as const;
export type InteractionType = (typeof INTERACTION_TYPES)[number];
export const TARGET_TYPES = ['server', 'newsletter', 'premium_cta'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

/** Conversion values of SPEC section 9: the events that carry one (a premium or sponsored server's click is worth more). */
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

/** The conversion value of an event (SPEC section 9), or null. */
export function conversionValue(type: InteractionType, target: TargetType, isPremium = false): number | null {
  const entry = CONVERSION_VALUES.find((c) => c.type === type && c.target === target);
  if (!entry) return null;
  return isPremium ? (entry.premium ?? entry.value) : entry.value;
}

/** Sort orders of the listing: 'members' (default) or the curated order. */
export const SORT_ORDERS = ['members', 'featured'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** Page sizes and limits of SPEC section 9. */
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

/** Contact addresses shown on the site. */
export const SUPPORT_EMAIL = 'support@guildrank.example';

/** The product's name, appended to page titles. */
export const SITE_NAME = 'GuildRank';
