import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, sqliteView, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import {
  APPEAL_OUTCOMES,
  CHECK_OUTCOMES,
  CLAIM_PROOFS,
  CONTACT_PRIORITIES,
  CONTACT_STATUSES,
  DECISION_KINDS,
  EDIT_STATUSES,
  FLAG_VERDICTS,
  INTERACTION_TYPES,
  INVITE_STATUSES,
  MAIL_STATUSES,
  NEWSLETTER_STATUSES,
  OPERATOR_ROLES,
  ORDER_KINDS,
  ORDER_STATES,
  PLACEMENTS,
  REPORT_STATUSES,
  REVIEW_STATUSES,
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
    /** The average of its shown member reviews (#31) once at least REVIEWS_SHOWN_MIN show, else 0. */
    rating: real('rating').notNull().default(0),
    /** How many of its member reviews show (#31); kept with `rating` in the batch of each review change. */
    review_count: integer('review_count').notNull().default(0),
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
    /** The rank score from checked signals only (src/lib/ranking/formula.ts) and its parts as JSON. */
    rank_score: real('rank_score').notNull().default(0),
    rank_explain: text('rank_explain', { mode: 'json' }).$type<Record<string, number>>(),
    /** Member growth over 30 days as a fraction (0.05 = +5 %), from the history. */
    growth_30d: real('growth_30d').notNull().default(0),
    /**
     * The listing's place in its category by score (the Most Active order), as the rank recompute
     * that wrote rank_score counted it (functions/_app/jobs/rank.ts); null when it was not listed
     * then. A page or badge reads it instead of counting the category (200,000 rows at a million).
     */
    category_place: integer('category_place'),
    // Language and region (#19): a primary language as an ISO 639-1 code ('en'), an optional
    // ISO 3166-1 alpha-2 region ('US'); null until the owner or a reviewer sets it.
    language: text('language'),
    region: text('region'),
    /** The paid placement's period (#19), shown in "About this placement"; null: not recorded. */
    placement_started_at: text('placement_started_at'),
    placement_ends_at: text('placement_ends_at'),
    /**
     * How the running placement came (#30): 'checkout' (paid by the listing's owner), 'comp' (an
     * operator's free grant); null when no order set it. placement_ends_at is its paid-until.
     */
    placement_kind: text('placement_kind', { enum: ORDER_KINDS }),
    /** The owner's links beside the join link (#17): website, socials; https only, at most LINKS_MAX. */
    links: text('links', { mode: 'json' }).$type<{ label: string; url: string }[]>().notNull().default(sql`'[]'`),
  },
  (t) => [
    uniqueIndex('discord_servers_slug_unique').on(t.slug),
    uniqueIndex('discord_servers_guild_unique').on(t.guild_id).where(sql`guild_id IS NOT NULL`),
    // The refresh pass (#15) reads the due listings in order and counts them: only those with an
    // invite to look up, so at a million listings neither walks rows it then throws away.
    index('discord_servers_due_idx').on(t.next_check_at, t.id).where(sql`invite_code IS NOT NULL`),
    // The anomaly pass reads the listings checked since its last run: a range of this index.
    index('discord_servers_checked_idx').on(t.last_checked_at).where(sql`last_checked_at IS NOT NULL`),
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
    // A dense search counts its listed matches (up to 1,001) by id (issue 35): from this index's
    // small entries instead of each match's whole row, scattered over the table.
    index('discord_servers_listed_idx').on(t.id, t.is_active, t.category, t.invite_status),
    // An approval places its new listing among the category's stored places (issue 35): only the
    // listings that have one (scored and listed), by score, in one range read.
    index('discord_servers_category_place_idx')
      .on(t.category, t.rank_score, t.members)
      .where(sql`category_place IS NOT NULL`),
    // A category's Sponsored listings lead its list (placesAtHead): a page within the listing's
    // head reads them here instead of walking the whole category (src/data/listing-page.ts).
    index('discord_servers_sponsored_idx')
      .on(t.is_active, t.category, t.members, t.invite_status)
      .where(sql`is_sponsored = 1`),
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
    /** When the owner's sign-in proved the guild theirs (the session's sign-in time): the review queue shows its age. */
    owner_proven_at: text('owner_proven_at'),
    /** When a moderator approved or rejected it (#32): the queue figures' decision time is this minus created_at. */
    decided_at: text('decided_at'),
    created_at: createdAt(),
    updated_at: text('updated_at').notNull().default(now),
  },
  (t) => [
    index('server_submissions_created_idx').on(t.created_at),
    index('server_submissions_status_created_idx').on(t.status, t.created_at),
    index('server_submissions_decided_idx').on(t.decided_at),
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

/**
 * Per premium or sponsored server (or one with paid orders): its traffic (#30). Its money is
 * premium_server_revenue's, one row per currency: amounts in different currencies are never added.
 */
export const premiumServerPerformance = sqliteView('premium_server_performance', {
  server_id: integer('server_id').notNull(),
  name: text('name').notNull(),
  slug: text('slug').notNull(),
  is_premium: bool('is_premium').notNull(),
  is_sponsored: bool('is_sponsored').notNull(),
  views: integer('views').notNull(),
  clicks: integer('clicks').notNull(),
  conversions: integer('conversions').notNull(),
}).as(
  sql`SELECT s.id AS server_id, s.name AS name, s.slug AS slug, s.is_premium AS is_premium, s.is_sponsored AS is_sponsored,
  coalesce((SELECT sum(i.interaction_type = 'view') FROM user_interactions i WHERE i.server_id = s.id), 0) AS views,
  coalesce((SELECT sum(i.interaction_type = 'click') FROM user_interactions i WHERE i.server_id = s.id), 0) AS clicks,
  coalesce((SELECT sum(i.interaction_type = 'conversion') FROM user_interactions i WHERE i.server_id = s.id), 0) AS conversions
FROM discord_servers s
WHERE s.is_premium = 1 OR s.is_sponsored = 1 OR EXISTS (SELECT 1 FROM orders o WHERE o.server_id = s.id AND o.paid_at IS NOT NULL)`,
);

/**
 * A listing's money per currency (#30), in the currency's smallest unit: total_cents is what its
 * checkouts took in minus refunds, ever; daily_cents the same over the last 30 days (each refund
 * on its own day, order_refunds) divided by 30, rounded. One row per listing and currency its
 * orders were in (zero figures included), so no figure adds one currency to another.
 */
export const premiumServerRevenue = sqliteView('premium_server_revenue', {
  server_id: integer('server_id').notNull(),
  currency: text('currency').notNull(),
  total_cents: integer('total_cents').notNull(),
  daily_cents: integer('daily_cents').notNull(),
}).as(
  sql`SELECT o.server_id AS server_id, o.currency AS currency,
  sum(CASE WHEN o.paid_at IS NOT NULL AND o.kind = 'checkout' THEN o.amount_cents ELSE 0 END) - sum(o.refunded_cents) AS total_cents,
  CAST(round((coalesce(sum(CASE WHEN o.kind = 'checkout' AND o.paid_at >= ${days(30)} THEN o.amount_cents END), 0) - coalesce((SELECT sum(r.amount_cents) FROM order_refunds r JOIN orders ro ON ro.id = r.order_id WHERE ro.server_id = o.server_id AND ro.currency = o.currency AND r.created_at >= ${days(30)}), 0)) / 30.0) AS INTEGER) AS daily_cents
FROM orders o
WHERE o.server_id IS NOT NULL
GROUP BY o.server_id, o.currency`,
);

/**
 * Money per UTC day and currency (#30): payments in minus refunds out, in the smallest unit; each
 * refund on the day it was made (order_refunds: a partial refund, then the rest, on their own days).
 */
export const dailyRevenue = sqliteView('daily_revenue', {
  day: text('day').notNull(),
  currency: text('currency').notNull(),
  paid_cents: integer('paid_cents').notNull(),
  refunded_cents: integer('refunded_cents').notNull(),
  net_cents: integer('net_cents').notNull(),
}).as(
  sql`SELECT day, currency, sum(paid) AS paid_cents, sum(refunded) AS refunded_cents, sum(paid) - sum(refunded) AS net_cents FROM (
  SELECT substr(paid_at, 1, 10) AS day, currency, amount_cents AS paid, 0 AS refunded FROM orders WHERE paid_at IS NOT NULL AND kind = 'checkout'
  UNION ALL
  SELECT substr(r.created_at, 1, 10) AS day, o.currency AS currency, 0 AS paid, r.amount_cents AS refunded FROM order_refunds r JOIN orders o ON o.id = r.order_id
) GROUP BY day, currency`,
);

/**
 * Per server and UTC day: views, clicks, signups, conversions and their worth (the sum of the
 * events' conversion values, points of CONVERSION_VALUES in src/lib/enums.ts: not money; money is daily_revenue).
 * The view's query lives in its migration (db/migrations/0020_server_analytics_worth.sql), its one
 * home: `.existing()` tells drizzle-kit not to write it again; a change to it is a new migration.
 */
export const serverAnalytics = sqliteView('server_analytics', {
  server_id: integer('server_id').notNull(),
  date: text('date').notNull(),
  views: integer('views').notNull(),
  clicks: integer('clicks').notNull(),
  signups: integer('signups').notNull(),
  conversions: integer('conversions').notNull(),
  worth: real('worth').notNull(),
}).existing();

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
    /**
     * When the first attempt began whose outcome the sender never learned (no answer, a 5xx, a
     * sender that died before recording it): the provider may have taken the mail, and its
     * Idempotency-Key stops a second copy only for IDEMPOTENCY_KEY_LIFETIME_MS from then. Set by
     * the claim; null while every attempt was refused outright (or none was made).
     */
    unconfirmed_since: text('unconfirmed_since'),
    /** The Message-ID the mail server accepted. */
    message_id: text('message_id'),
    sent_at: text('sent_at'),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('mail_outbox_dedupe_unique').on(t.dedupe_key),
    index('mail_outbox_status_next_idx').on(t.status, t.next_attempt_at),
    index('mail_outbox_created_idx').on(t.created_at),
    // The per-recipient hourly cap counts a recipient's recent mails.
    index('mail_outbox_to_created_idx').on(t.to_address, t.created_at),
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
    /** The last subscriber id whose copy is in the outbox: a pass cut short (the Worker's budget) goes on from there. */
    enqueued_through: integer('enqueued_through').notNull().default(0),
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
    /**
     * What the owner's last sign-in showed (guild id → proof): an owner-verified submission is
     * re-proved against it at approval, so a proof lost since submitting claims nothing.
     */
    managed_guilds: text('managed_guilds', { mode: 'json' }).$type<Record<string, string>>(),
    /** The owner's Discord webhook (#32): one of Discord's own webhook URLs, checked before saving. */
    webhook_url: text('webhook_url'),
    /** When the webhook was switched off because Discord answered 404 or 401 (null: on, or none). */
    webhook_disabled_at: text('webhook_disabled_at'),
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
    /**
     * The guilds the sign-in that made this session proved the owner's (guild id → proof): kept
     * with the session and gone with it, so a proof never outlives the sign-in that gave it.
     */
    guilds: text('guilds', { mode: 'json' }).$type<Record<string, string>>().notNull().default(sql`'{}'`),
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

/**
 * The OAuth states of owner sign-ins already used (their SHA-256): a replayed pending cookie
 * cannot sign in twice. Rows older than a sign-in's life are swept.
 */
export const oauthStates = sqliteTable('oauth_states', {
  id: text('id').primaryKey(),
  used_at: text('used_at').notNull(),
});

/**
 * Discord's recent answers per invite code (kind and what the submit check needs), unknown invites
 * included, so a code asked again within its time costs no lookup of the site's budget.
 */
export const inviteAnswers = sqliteTable(
  'invite_answers',
  {
    code: text('code').primaryKey(),
    answer: text('answer', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    expires_at: text('expires_at').notNull(),
  },
  (t) => [index('invite_answers_expires_idx').on(t.expires_at)],
);

/**
 * Fixed windows of a limit counted per client in the database (so every replica and the Worker
 * share them): `name` is the limit and the client's IP hash, e.g. `invite-lookups:<hash>`.
 */
export const clientBudgets = sqliteTable(
  'client_budgets',
  {
    name: text('name').primaryKey(),
    window_start: text('window_start').notNull(),
    window_count: integer('window_count').notNull().default(0),
  },
  (t) => [index('client_budgets_window_idx').on(t.window_start)],
);

export type MailRow = typeof mailOutbox.$inferSelect;
export type OwnerRow = typeof ownerUsers.$inferSelect;
export type ListingEditRow = typeof listingEdits.$inferSelect;

/**
 * What changed since the live build: one row per change that asked for a rebuild (with `page`, a
 * public path whose prerendered file it makes stale; null for a change without one). Kept in the
 * database so a change made just before a restart, or whose deploy-hook call failed, still reaches
 * the prerendered pages: `npm start` builds at start while rows newer than its live build remain,
 * and the Worker's scheduled handler calls the hook again. A build that goes live deletes the rows
 * requested before it began.
 */
export const siteChanges = sqliteTable(
  'site_changes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    reason: text('reason').notNull(),
    page: text('page'),
    /** When the change asked for the rebuild (ms since the epoch): a build that began later holds it. */
    requested_at: integer('requested_at').notNull(),
    /**
     * What the change may alter (RebuildTrigger.request's scope): 'listings', only the listings its
     * page names (an incremental publish can take it, on Node and in the deploy job), or 'site'.
     */
    scope: text('scope', { enum: ['listings', 'site'] })
      .notNull()
      .default('site'),
    /**
     * When a deploy-hook call that succeeded covered the change (ms), or null: the Worker calls the
     * hook again only for rows without one (retryFailed). The row itself stays until the deploy job
     * that read it has deployed (scripts/deploy.ts clears the rows it published).
     */
    hook_called_at: integer('hook_called_at'),
  },
  (t) => [index('site_changes_requested_idx').on(t.requested_at)],
);

/** What the site sells (#30): one row per plan; a change applies to new purchases only (orders copy price and term). */
export const plans = sqliteTable('plans', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  placement: text('placement', { enum: PLACEMENTS }).notNull(),
  term_days: integer('term_days').notNull(),
  /** In the currency's smallest unit (cents). */
  price_cents: integer('price_cents').notNull(),
  /** ISO 4217, lower case as Stripe writes it ('usd'). */
  currency: text('currency').notNull().default('usd'),
  active: bool('active').notNull().default(true),
  created_at: createdAt(),
  updated_at: text('updated_at').notNull().default(now),
});

/**
 * One purchase (or comp) of a placement for a listing (#30). Price, currency, placement and term
 * are copied from the plan at checkout. `version` is a fresh token at every change: a write is
 * applied only over the version it was computed from (db/queries/orders.ts).
 */
export const orders = sqliteTable(
  'orders',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The listing; null once it is deleted: an order is a record of money and outlives it. */
    server_id: integer('server_id').references(() => discordServers.id, { onDelete: 'set null' }),
    /** The listing's name when ordered: what the console and the receipts name once it is gone. */
    server_name: text('server_name').notNull().default(''),
    owner_id: integer('owner_id').references(() => ownerUsers.id, { onDelete: 'set null' }),
    plan_id: integer('plan_id').references(() => plans.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ORDER_KINDS }).notNull().default('checkout'),
    placement: text('placement', { enum: PLACEMENTS }).notNull(),
    /** The listing's category when ordered: sponsored slots are counted per category. */
    category: text('category').notNull(),
    term_days: integer('term_days').notNull(),
    amount_cents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    state: text('state', { enum: ORDER_STATES }).notNull().default('open'),
    version: text('version').notNull(),
    stripe_session_id: text('stripe_session_id'),
    checkout_url: text('checkout_url'),
    /** When Stripe lets the checkout session expire (ISO time): past it, a new Promote opens a new one. */
    checkout_expires_at: text('checkout_expires_at'),
    stripe_payment_intent: text('stripe_payment_intent'),
    /** The payer's address from Checkout: receipt, reminder, end and refund mails go there. */
    customer_email: text('customer_email'),
    /** Money in (ISO time), the slot's start and end (ISO times; the start may be scheduled later). */
    paid_at: text('paid_at'),
    starts_at: text('starts_at'),
    ends_at: text('ends_at'),
    /** Money out so far: the sum of its order_refunds (a partial refund leaves the placement running). */
    refunded_cents: integer('refunded_cents').notNull().default(0),
    /** When the last refund was made (ISO time); each one's day is in order_refunds. */
    refunded_at: text('refunded_at'),
    refund_reason: text('refund_reason'),
    /** Who granted a comp (operator email). */
    granted_by: text('granted_by'),
    /**
     * When the reconcile job last asked Stripe about this open order's session (ISO time; null:
     * never): it asks the never-asked and the longest-unasked first, so no order Stripe cannot
     * settle yet keeps the others from their turn.
     */
    reconcile_checked_at: text('reconcile_checked_at'),
    created_at: createdAt(),
    updated_at: text('updated_at').notNull().default(now),
  },
  (t) => [
    // The reconcile job's turn order among open orders (openOrdersToReconcile).
    index('orders_reconcile_idx').on(t.reconcile_checked_at, t.id).where(sql`state = 'open'`),
    uniqueIndex('orders_session_unique').on(t.stripe_session_id).where(sql`stripe_session_id IS NOT NULL`),
    // One open checkout per listing and plan.
    uniqueIndex('orders_open_unique').on(t.server_id, t.plan_id).where(sql`state = 'open'`),
    index('orders_payment_intent_idx').on(t.stripe_payment_intent),
    index('orders_state_idx').on(t.state, t.ends_at),
    index('orders_slots_idx').on(t.placement, t.category, t.state, t.ends_at),
    index('orders_server_idx').on(t.server_id),
  ],
);

/** Every Stripe event applied (#30), once: a replay finds its id here and changes nothing. */
export const stripeEvents = sqliteTable(
  'stripe_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    order_id: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    /** The order's state after the event (null: no order, or nothing changed). */
    outcome: text('outcome'),
    created_at: createdAt(),
  },
  (t) => [index('stripe_events_order_idx').on(t.order_id)],
);

/**
 * Money out of an order, one row per refund (#30): a partial refund made in Stripe's dashboard,
 * another later, the rest, a lost dispute. `amount_cents` is the part of the price this refund
 * gave back (the tax Stripe Tax added was never revenue); the order's `refunded_cents` is their
 * sum. Revenue per day counts each on its own day (daily_revenue), never one twice.
 */
export const orderRefunds = sqliteTable(
  'order_refunds',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    order_id: integer('order_id')
      .notNull()
      .references(() => orders.id),
    /** The event that recorded it (stripe_events.id); null for a refund recorded before this table. */
    event_id: text('event_id'),
    amount_cents: integer('amount_cents').notNull(),
    created_at: text('created_at').notNull(),
  },
  (t) => [index('order_refunds_order_idx').on(t.order_id), index('order_refunds_created_idx').on(t.created_at)],
);

export type PlanRow = typeof plans.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;

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

/**
 * A member's review of a listing (#31): one per account and listing (a second one edits the
 * first). `display_name` is the reviewer's Discord display name as they chose it when writing;
 * `member_since` the `joined_at` Discord gave for the guild.
 */
export const reviews = sqliteTable(
  'reviews',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    server_id: integer('server_id')
      .notNull()
      .references(() => discordServers.id, { onDelete: 'cascade' }),
    account_id: integer('account_id')
      .notNull()
      .references(() => ownerUsers.id, { onDelete: 'cascade' }),
    rating: integer('rating').notNull(),
    body: text('body').notNull(),
    display_name: text('display_name').notNull(),
    member_since: text('member_since').notNull(),
    status: text('status', { enum: REVIEW_STATUSES }).notNull().default('shown'),
    /** The public reason of a moderator's hide ("off-topic"), shown in the review's place. */
    hidden_reason: text('hidden_reason'),
    /** Why it is held ("burst": more than REVIEW_BURST_LIMIT new reviews of the listing in 24 h). */
    held_reason: text('held_reason'),
    created_at: createdAt(),
    /** Set when its author changes it after writing. */
    edited_at: text('edited_at'),
    /** Who hid or released it, and when (operator email). */
    moderated_by: text('moderated_by'),
    moderated_at: text('moderated_at'),
  },
  (t) => [
    uniqueIndex('reviews_server_account_unique').on(t.server_id, t.account_id),
    index('reviews_server_status_created_idx').on(t.server_id, t.status, t.created_at),
    // A listing's public reviews newest first, read in order and stopped after a page (status is
    // checked in the index): without it every page sorted all of the listing's reviews (24 ms a
    // first page at 20,000 reviews, 6 ms with both; docs/reviews.md).
    index('reviews_server_order_idx').on(t.server_id, t.created_at, t.id, t.status),
    // The rating summary counted from the index alone.
    index('reviews_server_status_rating_idx').on(t.server_id, t.status, t.rating),
    index('reviews_account_idx').on(t.account_id),
    index('reviews_status_created_idx').on(t.status, t.created_at),
  ],
);

/** The listing owner's one public reply to a review (#31). */
export const reviewReplies = sqliteTable(
  'review_replies',
  {
    review_id: integer('review_id')
      .primaryKey()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    account_id: integer('account_id')
      .notNull()
      .references(() => ownerUsers.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    created_at: createdAt(),
    edited_at: text('edited_at'),
  },
  (t) => [index('review_replies_account_idx').on(t.account_id)],
);

/** A signed-in person's flag on a review (#31), for the console's Reviews screen; one per account and review. */
export const reviewFlags = sqliteTable(
  'review_flags',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    review_id: integer('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    account_id: integer('account_id')
      .notNull()
      .references(() => ownerUsers.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    details: text('details'),
    created_at: createdAt(),
    /** When a moderator dealt with it (hid the review or dismissed the flag). */
    resolved_at: text('resolved_at'),
  },
  (t) => [
    uniqueIndex('review_flags_review_account_unique').on(t.review_id, t.account_id),
    index('review_flags_open_idx').on(t.resolved_at, t.created_at),
  ],
);

/**
 * What Discord said of an account's membership in a listing's guild (#31), read with the
 * `guilds.members.read` sign-in that starts a review (the token is revoked at once): whether they
 * are in the guild, own or manage it, and when they joined. A review is checked against it.
 */
export const reviewProofs = sqliteTable(
  'review_proofs',
  {
    account_id: integer('account_id')
      .notNull()
      .references(() => ownerUsers.id, { onDelete: 'cascade' }),
    server_id: integer('server_id')
      .notNull()
      .references(() => discordServers.id, { onDelete: 'cascade' }),
    member: bool('member').notNull(),
    /** Their standing in the guild by its guild list: 'owner', 'manage_guild' (Manage Server), or null. */
    role: text('role', { enum: CLAIM_PROOFS }),
    joined_at: text('joined_at'),
    checked_at: text('checked_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.account_id, t.server_id] })],
);

/** A signed-in person's mail settings (#31): where the site may mail them, and whether about new reviews. */
export const accountSettings = sqliteTable('account_settings', {
  account_id: integer('account_id')
    .primaryKey()
    .references(() => ownerUsers.id, { onDelete: 'cascade' }),
  email: text('email'),
  /** Mail the listing's owner when a new review shows (on by default). */
  mail_new_reviews: bool('mail_new_reviews').notNull().default(true),
});

export type ReviewRow = typeof reviews.$inferSelect;

/**
 * The servers counted per group of what decides where they are listed (issue 35): listed or not,
 * category, stored subcategory and region ('' for none), invite state and paid placement, with
 * their members and active users summed. Triggers on discord_servers keep it in step (migration
 * 0016), so a listing's size, sums, paid count and regions, and the home's category tiles, are a
 * read of a few hundred rows instead of a walk of every listing (db/queries/listing-groups.ts).
 */
export const listingGroups = sqliteTable(
  'listing_groups',
  {
    is_active: bool('is_active').notNull(),
    category: text('category').notNull(),
    subcategory: text('subcategory').notNull(),
    invite_status: text('invite_status').notNull(),
    region: text('region').notNull(),
    paid: bool('paid').notNull(),
    servers: integer('servers').notNull(),
    members: integer('members').notNull(),
    active_users: integer('active_users').notNull(),
  },
  (t) => [primaryKey({ columns: [t.is_active, t.category, t.subcategory, t.invite_status, t.region, t.paid] })],
);

/**
 * A moderator's decision that can be appealed once (#32): a submission rejected, or a live listing
 * hidden, with its reasons (MODERATION_REASONS), the requirement a "does not meet a requirement"
 * reason names, an optional note, who decided, and the one appeal and its outcome. The contact
 * address is copied so the appeal's outcome reaches the submitter even if the row it was about goes.
 */
export const moderationDecisions = sqliteTable(
  'moderation_decisions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind', { enum: DECISION_KINDS }).notNull(),
    submission_id: integer('submission_id').references(() => serverSubmissions.id, { onDelete: 'set null' }),
    server_id: integer('server_id').references(() => discordServers.id, { onDelete: 'set null' }),
    /** The server's name when decided, for the mails and the console. */
    server_name: text('server_name').notNull(),
    reasons: text('reasons', { mode: 'json' }).$type<string[]>().notNull(),
    requirement: text('requirement'),
    note: text('note'),
    contact_email: text('contact_email'),
    operator_id: integer('operator_id').references(() => operators.id, { onDelete: 'set null' }),
    /** A random key the signed appeal link names (lib/appeal-link.ts): known before the row's id is. */
    appeal_key: text('appeal_key').notNull(),
    created_at: createdAt(),
    /** The one appeal: what the submitter wrote (up to 1,000 characters) and when. */
    appeal_text: text('appeal_text'),
    appealed_at: text('appealed_at'),
    appeal_outcome: text('appeal_outcome', { enum: APPEAL_OUTCOMES }),
    appeal_note: text('appeal_note'),
    appeal_decided_by: integer('appeal_decided_by').references(() => operators.id, { onDelete: 'set null' }),
    appeal_decided_at: text('appeal_decided_at'),
  },
  (t) => [
    uniqueIndex('moderation_decisions_appeal_key_unique').on(t.appeal_key),
    index('moderation_decisions_created_idx').on(t.created_at),
    index('moderation_decisions_appealed_idx').on(t.appealed_at),
    index('moderation_decisions_submission_idx').on(t.submission_id),
  ],
);

export type DecisionRow = typeof moderationDecisions.$inferSelect;

/**
 * Owner notifications to their Discord webhook (#32), written with the event like mail and
 * delivered by jobs/webhook-sender.ts with the mail's retries. `dedupe_key` names the event.
 */
export const webhookOutbox = sqliteTable(
  'webhook_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    owner_id: integer('owner_id')
      .notNull()
      .references(() => ownerUsers.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    dedupe_key: text('dedupe_key').notNull(),
    /** The message as Discord's Execute Webhook takes it: { content, embeds? }. */
    payload: text('payload', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: MAIL_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: text('next_attempt_at').notNull().default(now),
    last_error: text('last_error'),
    sent_at: text('sent_at'),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('webhook_outbox_dedupe_unique').on(t.dedupe_key),
    index('webhook_outbox_status_next_idx').on(t.status, t.next_attempt_at),
  ],
);

export type WebhookRow = typeof webhookOutbox.$inferSelect;
