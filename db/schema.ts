import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, sqliteView, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import {
  CHECK_OUTCOMES,
  CLAIM_PROOFS,
  CONTACT_PRIORITIES,
  CONTACT_STATUSES,
  EDIT_STATUSES,
  FLAG_VERDICTS,
  INTERACTION_TYPES,
  INVITE_STATUSES,
  MAIL_STATUSES,
  NEWSLETTER_STATUSES,
  OPERATOR_ROLES,
  REPORT_STATUSES,
  SUBMISSION_STATUSES,
  TARGET_TYPES,
} from '../src/lib/enums';

/** ISO-8601 UTC with milliseconds, so text order is time order. */
const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
const createdAt = () => text('created_at').notNull().default(now);
const bool = (name: string) => integer(name, { mode: 'boolean' });
const jsonList = (name: string) => text(name, { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`);

/** A listed Discord community ("server" everywhere in the product). */
export const discordServers = sqliteTable(
  'discord_servers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    category: text('category').notNull(),
    subcategory: text('subcategory'),
    slug: text('slug').notNull(),
    members: integer('members').notNull().default(0),
    active_users: integer('active_users').notNull().default(0),
    rating: real('rating').notNull().default(0),
    image_url: text('image_url'),
    pros: jsonList('pros'),
    cons: jsonList('cons'),
    is_premium: bool('is_premium').notNull().default(false),
    is_sponsored: bool('is_sponsored').notNull().default(false),
    /** The join link: a Discord invite or an affiliate URL. */
    affiliate_link: text('affiliate_link'),
    tags: jsonList('tags'),
    features: jsonList('features'),
    sort_order: integer('sort_order').notNull().default(0),
    is_active: bool('is_active').notNull().default(true),
    created_at: createdAt(),
    updated_at: text('updated_at').notNull().default(now),
    // Freshness (#15): what Discord says of the invite. `members` and `active_users` above are
    // Discord's approximate member and online counts once a check has answered.
    /** The Discord guild (server) id the invite opened when first checked; one listing per guild. */
    guild_id: text('guild_id'),
    /** The guild's icon hash (CDN URL built from guild_id + hash); null: initials. */
    guild_icon: text('guild_icon'),
    /** The invite code (never a URL) the checks look up. */
    invite_code: text('invite_code'),
    invite_status: text('invite_status', { enum: INVITE_STATUSES }).notNull().default('unchecked'),
    /** The last definitive answer (ISO time), and the last answer that found the invite working. */
    last_checked_at: text('last_checked_at'),
    last_ok_at: text('last_ok_at'),
    /** When the refresh job should look again (ISO time; '' = due now). */
    next_check_at: text('next_check_at').notNull().default(''),
    /** Consecutive unknown-invite answers, and when the first of them came. */
    fail_streak: integer('fail_streak').notNull().default(0),
    first_fail_at: text('first_fail_at'),
    /** Consecutive transient failures (network, 5xx): they never change the status. */
    transient_streak: integer('transient_streak').notNull().default(0),
    /** The rank score from checked signals only (src/lib/freshness/rank.ts) and its parts as JSON. */
    rank_score: real('rank_score').notNull().default(0),
    rank_explain: text('rank_explain', { mode: 'json' }).$type<Record<string, number>>(),
    /** Member growth over 30 days as a fraction (0.05 = +5 %), from the history. */
    growth_30d: real('growth_30d').notNull().default(0),
    // Language and region (#19): a primary language as an ISO 639-1 code ('en'), an optional
    // ISO 3166-1 alpha-2 region ('US'); null until the owner or a reviewer sets it.
    language: text('language'),
    region: text('region'),
    /** The paid placement's period (#19), shown in "About this placement"; null: not recorded. */
    placement_started_at: text('placement_started_at'),
    placement_ends_at: text('placement_ends_at'),
    /** The owner's links beside the join link (#17): website, socials; https only, at most LINKS_MAX. */
    links: text('links', { mode: 'json' }).$type<{ label: string; url: string }[]>().notNull().default(sql`'[]'`),
  },
  (t) => [
    uniqueIndex('discord_servers_slug_unique').on(t.slug),
    uniqueIndex('discord_servers_guild_unique').on(t.guild_id).where(sql`guild_id IS NOT NULL`),
    index('discord_servers_next_check_idx').on(t.next_check_at),
    index('discord_servers_active_category_members_idx').on(t.is_active, t.category, t.members),
    index('discord_servers_active_members_idx').on(t.is_active, t.members),
    index('discord_servers_active_sort_idx').on(t.is_active, t.sort_order, t.members),
    index('discord_servers_active_premium_idx').on(t.is_active, t.is_premium, t.is_sponsored),
    // The listing (#15): counts stay on an index with the invite rule and "checked in 24 hours";
    // Most Active, Newest and Growing walk an index instead of sorting every listed server.
    index('discord_servers_active_category_invite_idx').on(t.is_active, t.category, t.invite_status, t.last_ok_at),
    index('discord_servers_active_rank_idx').on(t.is_active, t.rank_score, t.members),
    index('discord_servers_active_created_idx').on(t.is_active, t.created_at),
    index('discord_servers_active_growth_idx').on(t.is_active, t.growth_30d, t.members),
    index('discord_servers_active_language_idx').on(t.is_active, t.language, t.members),
  ],
);

/** An owner's request to be listed, reviewed by an operator. */
export const serverSubmissions = sqliteTable(
  'server_submissions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    server_name: text('server_name').notNull(),
    server_description: text('server_description').notNull(),
    category: text('category').notNull(),
    invite_link: text('invite_link').notNull(),
    server_image: text('server_image'),
    contact_email: text('contact_email').notNull(),
    /** Multi-line text, one feature per line. */
    features: text('features'),
    member_count: integer('member_count').notNull().default(0),
    active_users: integer('active_users').notNull().default(0),
    submitter_name: text('submitter_name').notNull(),
    is_owner: bool('is_owner').notNull().default(true),
    status: text('status', { enum: SUBMISSION_STATUSES }).notNull().default('pending'),
    admin_notes: text('admin_notes'),
    /** Display name of a subcategory of `category` (categories.ts), chosen by the owner or the reviewer. */
    subcategory: text('subcategory'),
    /** The listing created on approval. */
    server_id: integer('server_id').references(() => discordServers.id, { onDelete: 'set null' }),
    /** What Discord said of the invite when it was submitted (#15): guild id, icon hash, code. */
    guild_id: text('guild_id'),
    guild_icon: text('guild_icon'),
    invite_code: text('invite_code'),
    /** Language and region (#19), as on the listing. */
    language: text('language'),
    region: text('region'),
    /** The signed-in owner who sent it (#17); null for an anonymous submission. */
    owner_id: integer('owner_id').references(() => ownerUsers.id, { onDelete: 'set null' }),
    /** True when the owner's Discord guild list proved the guild theirs at submission (#17). */
    owner_verified: bool('owner_verified').notNull().default(false),
    /** Which proof it was (#17): Discord's owner flag or the Manage Server bit; the claim its approval makes. */
    owner_proof: text('owner_proof', { enum: CLAIM_PROOFS }),
    created_at: createdAt(),
    updated_at: text('updated_at').notNull().default(now),
  },
  (t) => [
    index('server_submissions_created_idx').on(t.created_at),
    index('server_submissions_status_created_idx').on(t.status, t.created_at),
  ],
);

/**
 * Slugs a server had before a rename, so its old /server/{slug} URL answers 301 to the current one.
 * A slug belongs to the server that held it last.
 */
export const serverSlugs = sqliteTable(
  'server_slugs',
  {
    slug: text('slug').primaryKey(),
    server_id: integer('server_id')
      .notNull()
      .references(() => discordServers.id, { onDelete: 'cascade' }),
    created_at: createdAt(),
  },
  (t) => [index('server_slugs_server_idx').on(t.server_id)],
);

/** Editable page texts (hero, categories, footer...), with code defaults when absent. */
export const siteContent = sqliteTable(
  'site_content',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    page: text('page').notNull(),
    section: text('section').notNull(),
    content_key: text('content_key').notNull(),
    content_value: text('content_value').notNull().default(''),
    sort_order: integer('sort_order').notNull().default(0),
    is_active: bool('is_active').notNull().default(true),
  },
  (t) => [uniqueIndex('site_content_key_unique').on(t.page, t.section, t.content_key)],
);

/** Newsletter subscribers. */
export const newsletterSubscribers = sqliteTable(
  'newsletter_subscribers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    email: text('email').notNull(),
    source: text('source').notNull().default('homepage_signup'),
    interests: jsonList('interests'),
    status: text('status', { enum: NEWSLETTER_STATUSES }).notNull().default('active'),
    confirmed_at: text('confirmed_at'),
    unsubscribed_at: text('unsubscribed_at'),
    premium_subscriber: bool('premium_subscriber').notNull().default(false),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('newsletter_subscribers_email_unique').on(t.email),
    index('newsletter_subscribers_created_idx').on(t.created_at),
  ],
);

/** Analytics events: views, clicks, signups, conversions, and saves, unsaves, shares and reports. */
export const userInteractions = sqliteTable(
  'user_interactions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** src/lib/enums.ts INTERACTION_TYPES; plain text in SQL, so a new kind needs no migration. */
    interaction_type: text('interaction_type', {
      enum: INTERACTION_TYPES,
    }).notNull(),
    target_type: text('target_type', { enum: TARGET_TYPES }).notNull(),
    target_id: text('target_id'),
    server_id: integer('server_id').references(() => discordServers.id, { onDelete: 'set null' }),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>(),
    session_id: text('session_id'),
    user_agent: text('user_agent'),
    /** A salted hash of the address, never the address itself. */
    ip_address: text('ip_address'),
    campaign_id: text('campaign_id'),
    referrer: text('referrer'),
    utm_source: text('utm_source'),
    utm_medium: text('utm_medium'),
    utm_campaign: text('utm_campaign'),
    conversion_value: real('conversion_value'),
    created_at: createdAt(),
  },
  (t) => [
    index('user_interactions_created_idx').on(t.created_at),
    index('user_interactions_server_created_idx').on(t.server_id, t.created_at),
  ],
);

/** Visitors' reports about a listed server. */
export const serverReports = sqliteTable(
  'server_reports',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    server_id: integer('server_id')
      .notNull()
      .references(() => discordServers.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    details: text('details'),
    status: text('status', { enum: REPORT_STATUSES }).notNull().default('open'),
    session_id: text('session_id'),
    created_at: createdAt(),
    resolved_at: text('resolved_at'),
  },
  (t) => [
    index('server_reports_status_created_idx').on(t.status, t.created_at),
    index('server_reports_server_idx').on(t.server_id),
  ],
);

/** Messages from the contact form. */
export const contactMessages = sqliteTable(
  'contact_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull().default('general'),
    message: text('message').notNull(),
    priority: text('priority', { enum: CONTACT_PRIORITIES }).notNull().default('normal'),
    status: text('status', { enum: CONTACT_STATUSES }).notNull().default('new'),
    created_at: createdAt(),
  },
  (t) => [index('contact_messages_status_created_idx').on(t.status, t.created_at)],
);

/** People who run the console. */
export const operators = sqliteTable(
  'operators',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    email: text('email').notNull(),
    /** `pbkdf2-sha256$iterations$salt$hash`, base64url parts. */
    password_hash: text('password_hash').notNull(),
    role: text('role', { enum: OPERATOR_ROLES }).notNull().default('moderator'),
    last_login_at: text('last_login_at'),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('operators_email_unique').on(t.email)],
);

/**
 * Console sign-in attempts that did not succeed, for the throttle per client address and per
 * (email, address). A row is written before the password is checked, so parallel guesses count;
 * a good password removes its (email, address) rows and a throttled attempt its own row.
 */
export const signInFailures = sqliteTable(
  'sign_in_failures',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Salted hash of the client IP, as the rate limits use. */
    ip_hash: text('ip_hash').notNull(),
    /** Salted hash of the lowercased email: unknown emails are stored like known ones. */
    email_hash: text('email_hash').notNull(),
    /** ISO time of the attempt, from the app's clock. */
    created_at: text('created_at').notNull(),
  },
  (t) => [
    index('sign_in_failures_ip_created_idx').on(t.ip_hash, t.created_at),
    index('sign_in_failures_created_idx').on(t.created_at),
  ],
);

/** Console sessions; the cookie holds a token whose SHA-256 is the id. */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    operator_id: integer('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    csrf_token: text('csrf_token').notNull(),
    created_at: createdAt(),
    last_seen_at: text('last_seen_at').notNull().default(now),
    expires_at: text('expires_at').notNull(),
  },
  (t) => [index('sessions_operator_idx').on(t.operator_id)],
);

/** Who did what to which record, and when. */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    operator_id: integer('operator_id').references(() => operators.id, { onDelete: 'set null' }),
    operator_email: text('operator_email'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entity_id: text('entity_id'),
    details: text('details', { mode: 'json' }).$type<Record<string, unknown>>(),
    created_at: createdAt(),
  },
  (t) => [index('audit_log_created_idx').on(t.created_at)],
);

const days = (n: number) => sql.raw(`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-${n} days')`);

/** One row of subscriber counts. */
export const newsletterStats = sqliteView('newsletter_stats', {
  total: integer('total').notNull(),
  active: integer('active').notNull(),
  unsubscribed: integer('unsubscribed').notNull(),
  premium: integer('premium').notNull(),
  new_last_7_days: integer('new_last_7_days').notNull(),
  new_last_30_days: integer('new_last_30_days').notNull(),
}).as(
  sql`SELECT count(*) AS total,
  coalesce(sum(status = 'active'), 0) AS active,
  coalesce(sum(status = 'unsubscribed'), 0) AS unsubscribed,
  coalesce(sum(premium_subscriber = 1 AND status = 'active'), 0) AS premium,
  coalesce(sum(created_at >= ${days(7)}), 0) AS new_last_7_days,
  coalesce(sum(created_at >= ${days(30)}), 0) AS new_last_30_days
FROM newsletter_subscribers`,
);

/** Per premium or sponsored server: traffic and revenue; daily_revenue averages the last 30 days. */
export const premiumServerPerformance = sqliteView('premium_server_performance', {
  server_id: integer('server_id').notNull(),
  name: text('name').notNull(),
  slug: text('slug').notNull(),
  is_premium: bool('is_premium').notNull(),
  is_sponsored: bool('is_sponsored').notNull(),
  views: integer('views').notNull(),
  clicks: integer('clicks').notNull(),
  conversions: integer('conversions').notNull(),
  total_revenue: real('total_revenue').notNull(),
  daily_revenue: real('daily_revenue').notNull(),
}).as(
  sql`SELECT s.id AS server_id, s.name AS name, s.slug AS slug, s.is_premium AS is_premium, s.is_sponsored AS is_sponsored,
  coalesce(sum(i.interaction_type = 'view'), 0) AS views,
  coalesce(sum(i.interaction_type = 'click'), 0) AS clicks,
  coalesce(sum(i.interaction_type = 'conversion'), 0) AS conversions,
  coalesce(sum(i.conversion_value), 0) AS total_revenue,
  round(coalesce(sum(CASE WHEN i.created_at >= ${days(30)} THEN i.conversion_value END), 0) / 30.0, 2) AS daily_revenue
FROM discord_servers s
LEFT JOIN user_interactions i ON i.server_id = s.id
WHERE s.is_premium = 1 OR s.is_sponsored = 1
GROUP BY s.id`,
);

/** Per server and UTC day: views, clicks, signups, conversions and revenue. */
export const serverAnalytics = sqliteView('server_analytics', {
  server_id: integer('server_id').notNull(),
  date: text('date').notNull(),
  views: integer('views').notNull(),
  clicks: integer('clicks').notNull(),
  signups: integer('signups').notNull(),
  conversions: integer('conversions').notNull(),
  revenue: real('revenue').notNull(),
}).as(
  sql`SELECT server_id, substr(created_at, 1, 10) AS date,
  sum(interaction_type = 'view') AS views,
  sum(interaction_type = 'click') AS clicks,
  sum(interaction_type = 'signup') AS signups,
  sum(interaction_type = 'conversion') AS conversions,
  coalesce(sum(conversion_value), 0) AS revenue
FROM user_interactions
WHERE server_id IS NOT NULL
GROUP BY server_id, substr(created_at, 1, 10)`,
);

export type ServerRow = typeof discordServers.$inferSelect;
export type NewServerRow = typeof discordServers.$inferInsert;
export type SubmissionRow = typeof serverSubmissions.$inferSelect;
export type ContentRow = typeof siteContent.$inferSelect;
export type SubscriberRow = typeof newsletterSubscribers.$inferSelect;
export type InteractionRow = typeof userInteractions.$inferSelect;
export type ReportRow = typeof serverReports.$inferSelect;
export type ContactRow = typeof contactMessages.$inferSelect;
export type OperatorRow = typeof operators.$inferSelect;
export type AuditRow = typeof auditLog.$inferSelect;

/** One definitive invite check of a listing (#15): the history behind counts, charts and anomaly rules. */
export const serverSnapshots = sqliteTable(
  'server_snapshots',
  {
    server_id: integer('server_id')
      .notNull()
      .references(() => discordServers.id, { onDelete: 'cascade' }),
    checked_at: text('checked_at').notNull(),
    outcome: text('outcome', { enum: CHECK_OUTCOMES }).notNull(),
    member_count: integer('member_count'),
    online_count: integer('online_count'),
  },
  (t) => [primaryKey({ columns: [t.server_id, t.checked_at] })],
);

/**
 * One row per scheduled job (#15): a lease so two runners never overlap, the lookup budget's
 * current 10-minute window, the circuit breaker after a 429 or a block page, and the last run.
 */
export const jobState = sqliteTable('job_state', {
  name: text('name').primaryKey(),
  lease_until: text('lease_until').notNull().default(''),
  lease_holder: text('lease_holder'),
  blocked_until: text('blocked_until').notNull().default(''),
  block_reason: text('block_reason'),
  block_level: integer('block_level').notNull().default(0),
  window_start: text('window_start').notNull().default(''),
  window_count: integer('window_count').notNull().default(0),
  last_run_at: text('last_run_at'),
  last_run_summary: text('last_run_summary', { mode: 'json' }).$type<Record<string, unknown>>(),
});

/** An explainable anomaly found in a listing's history (#15), for a moderator to confirm or dismiss. */
export const serverFlags = sqliteTable(
  'server_flags',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    server_id: integer('server_id')
      .notNull()
      .references(() => discordServers.id, { onDelete: 'cascade' }),
    rule: text('rule').notNull(),
    /** The sentence a moderator reads, e.g. "members +34% in 24 h; online +0.6%". */
    detail: text('detail').notNull(),
    opened_at: text('opened_at').notNull().default(now),
    closed_at: text('closed_at'),
    verdict: text('verdict', { enum: FLAG_VERDICTS }),
    reviewed_by: text('reviewed_by'),
  },
  (t) => [uniqueIndex('server_flags_open_unique').on(t.server_id, t.rule).where(sql`closed_at IS NULL`)],
);

/**
 * Every mail the product sends (#16), written in the same transaction as the event that causes it
 * and delivered by the sender with retries. `dedupe_key` names the event (e.g.
 * `submission-received:42`), so one event never makes two mails.
 */
export const mailOutbox = sqliteTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** What the mail is (submission_received, submission_approved, newsletter_confirm, ...). */
    kind: text('kind').notNull(),
    dedupe_key: text('dedupe_key').notNull(),
    to_address: text('to_address').notNull(),
    reply_to: text('reply_to'),
    subject: text('subject').notNull(),
    text_body: text('text_body').notNull(),
    html_body: text('html_body').notNull(),
    /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post...). */
    headers: text('headers', { mode: 'json' }).$type<Record<string, string>>(),
    status: text('status', { enum: MAIL_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** When the sender may try next (ISO time); a claim moves it ahead so two senders never overlap. */
    next_attempt_at: text('next_attempt_at').notNull().default(now),
    last_error: text('last_error'),
    /** The Message-ID the mail server accepted. */
    message_id: text('message_id'),
    sent_at: text('sent_at'),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('mail_outbox_dedupe_unique').on(t.dedupe_key),
    index('mail_outbox_status_next_idx').on(t.status, t.next_attempt_at),
    index('mail_outbox_created_idx').on(t.created_at),
  ],
);

/** One weekly newsletter issue (#16): composed once per ISO week; its mails carry `newsletter-issue:{week}:{subscriber}`. */
export const newsletterIssues = sqliteTable(
  'newsletter_issues',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** ISO week, e.g. '2026-W48'. */
    week: text('week').notNull(),
    subject: text('subject').notNull(),
    /** The picks as composed (ids, names, slugs, growth), so a resend shows the same issue. */
    content: text('content', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    recipient_count: integer('recipient_count').notNull().default(0),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('newsletter_issues_week_unique').on(t.week)],
);

/** A listing owner signed in with Discord (#17). Discord's tokens are never stored. */
export const ownerUsers = sqliteTable(
  'owner_users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    discord_user_id: text('discord_user_id').notNull(),
    username: text('username').notNull(),
    global_name: text('global_name'),
    avatar: text('avatar'),
    created_at: createdAt(),
    last_login_at: text('last_login_at'),
  },
  (t) => [uniqueIndex('owner_users_discord_unique').on(t.discord_user_id)],
);

/** Owner sessions (#17), separate from operators': the cookie holds a token whose SHA-256 is the id. */
export const ownerSessions = sqliteTable(
  'owner_sessions',
  {
    id: text('id').primaryKey(),
    owner_id: integer('owner_id')
      .notNull()
      .references(() => ownerUsers.id, { onDelete: 'cascade' }),
    csrf_token: text('csrf_token').notNull(),
    created_at: createdAt(),
    last_seen_at: text('last_seen_at').notNull().default(now),
    expires_at: text('expires_at').notNull(),
  },
  (t) => [index('owner_sessions_owner_idx').on(t.owner_id), index('owner_sessions_expires_idx').on(t.expires_at)],
);

/** A listing claimed by a signed-in owner (#17), re-checked at each sign-in. */
export const serverClaims = sqliteTable(
  'server_claims',
  {
    server_id: integer('server_id')
      .notNull()
      .references(() => discordServers.id, { onDelete: 'cascade' }),
    owner_id: integer('owner_id')
      .notNull()
      .references(() => ownerUsers.id, { onDelete: 'cascade' }),
    proof: text('proof', { enum: CLAIM_PROOFS }).notNull(),
    created_at: createdAt(),
    checked_at: text('checked_at').notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.server_id, t.owner_id] }), index('server_claims_owner_idx').on(t.owner_id)],
);

/**
 * An owner's edit of a live listing (#17): the changed fields as { field: { from, to } }, applied
 * to the listing only when an operator approves it.
 */
export const listingEdits = sqliteTable(
  'listing_edits',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    server_id: integer('server_id')
      .notNull()
      .references(() => discordServers.id, { onDelete: 'cascade' }),
    owner_id: integer('owner_id').references(() => ownerUsers.id, { onDelete: 'set null' }),
    changes: text('changes', { mode: 'json' }).$type<Record<string, { from: unknown; to: unknown }>>().notNull(),
    status: text('status', { enum: EDIT_STATUSES }).notNull().default('pending'),
    admin_notes: text('admin_notes'),
    decided_by: text('decided_by'),
    decided_at: text('decided_at'),
    created_at: createdAt(),
  },
  (t) => [
    index('listing_edits_status_created_idx').on(t.status, t.created_at),
    index('listing_edits_server_idx').on(t.server_id),
  ],
);

export type MailRow = typeof mailOutbox.$inferSelect;
export type OwnerRow = typeof ownerUsers.$inferSelect;
export type ListingEditRow = typeof listingEdits.$inferSelect;

/**
 * How often a listing's badge (/badge/{slug}.svg, #33) was fetched, one row per listing and UTC
 * day: fetches are tallied in memory and added here in batches, never a row per request.
 */
export const badgeFetches = sqliteTable(
  'badge_fetches',
  {
    server_id: integer('server_id')
      .notNull()
      .references(() => discordServers.id, { onDelete: 'cascade' }),
    /** The UTC day, YYYY-MM-DD. */
    day: text('day').notNull(),
    fetches: integer('fetches').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.server_id, t.day] })],
);
