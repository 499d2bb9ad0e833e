CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator_id` integer,
	`operator_email` text,
	`action` text NOT NULL,
	`entity` text NOT NULL,
	`entity_id` text,
	`details` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `audit_log_created_idx` ON `audit_log` (`created_at`);--> statement-breakpoint
CREATE TABLE `contact_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`subject` text DEFAULT 'general' NOT NULL,
	`message` text NOT NULL,
	`priority` text DEFAULT 'normal' NOT NULL,
	`status` text DEFAULT 'new' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `contact_messages_status_created_idx` ON `contact_messages` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `discord_servers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`category` text NOT NULL,
	`subcategory` text,
	`slug` text NOT NULL,
	`members` integer DEFAULT 0 NOT NULL,
	`active_users` integer DEFAULT 0 NOT NULL,
	`rating` real DEFAULT 0 NOT NULL,
	`image_url` text,
	`pros` text DEFAULT '[]' NOT NULL,
	`cons` text DEFAULT '[]' NOT NULL,
	`is_premium` integer DEFAULT false NOT NULL,
	`is_sponsored` integer DEFAULT false NOT NULL,
	`affiliate_link` text,
	`tags` text DEFAULT '[]' NOT NULL,
	`features` text DEFAULT '[]' NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `discord_servers_slug_unique` ON `discord_servers` (`slug`);--> statement-breakpoint
CREATE INDEX `discord_servers_active_category_members_idx` ON `discord_servers` (`is_active`,`category`,`members`);--> statement-breakpoint
CREATE INDEX `discord_servers_active_members_idx` ON `discord_servers` (`is_active`,`members`);--> statement-breakpoint
CREATE INDEX `discord_servers_active_sort_idx` ON `discord_servers` (`is_active`,`sort_order`,`members`);--> statement-breakpoint
CREATE INDEX `discord_servers_active_premium_idx` ON `discord_servers` (`is_active`,`is_premium`,`is_sponsored`);--> statement-breakpoint
CREATE TABLE `newsletter_subscribers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`source` text DEFAULT 'homepage_signup' NOT NULL,
	`interests` text DEFAULT '[]' NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`confirmed_at` text,
	`unsubscribed_at` text,
	`premium_subscriber` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `newsletter_subscribers_email_unique` ON `newsletter_subscribers` (`email`);--> statement-breakpoint
CREATE INDEX `newsletter_subscribers_created_idx` ON `newsletter_subscribers` (`created_at`);--> statement-breakpoint
CREATE TABLE `operators` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`role` text DEFAULT 'moderator' NOT NULL,
	`failed_attempts` integer DEFAULT 0 NOT NULL,
	`locked_until` text,
	`last_login_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `operators_email_unique` ON `operators` (`email`);--> statement-breakpoint
CREATE TABLE `server_reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`server_id` integer NOT NULL,
	`reason` text NOT NULL,
	`details` text,
	`status` text DEFAULT 'open' NOT NULL,
	`session_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`resolved_at` text,
	FOREIGN KEY (`server_id`) REFERENCES `discord_servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `server_reports_status_created_idx` ON `server_reports` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `server_reports_server_idx` ON `server_reports` (`server_id`);--> statement-breakpoint
CREATE TABLE `server_submissions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`server_name` text NOT NULL,
	`server_description` text NOT NULL,
	`category` text NOT NULL,
	`invite_link` text NOT NULL,
	`server_image` text,
	`contact_email` text NOT NULL,
	`features` text,
	`member_count` integer DEFAULT 0 NOT NULL,
	`active_users` integer DEFAULT 0 NOT NULL,
	`submitter_name` text NOT NULL,
	`is_owner` integer DEFAULT true NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`admin_notes` text,
	`server_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `discord_servers`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `server_submissions_created_idx` ON `server_submissions` (`created_at`);--> statement-breakpoint
CREATE INDEX `server_submissions_status_created_idx` ON `server_submissions` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`operator_id` integer NOT NULL,
	`csrf_token` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_seen_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_operator_idx` ON `sessions` (`operator_id`);--> statement-breakpoint
CREATE TABLE `site_content` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`page` text NOT NULL,
	`section` text NOT NULL,
	`content_key` text NOT NULL,
	`content_value` text DEFAULT '' NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `site_content_key_unique` ON `site_content` (`page`,`section`,`content_key`);--> statement-breakpoint
CREATE TABLE `user_interactions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`interaction_type` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text,
	`server_id` integer,
	`metadata` text,
	`session_id` text,
	`user_agent` text,
	`ip_address` text,
	`campaign_id` text,
	`referrer` text,
	`utm_source` text,
	`utm_medium` text,
	`utm_campaign` text,
	`conversion_value` real,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `discord_servers`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `user_interactions_created_idx` ON `user_interactions` (`created_at`);--> statement-breakpoint
CREATE INDEX `user_interactions_server_created_idx` ON `user_interactions` (`server_id`,`created_at`);--> statement-breakpoint
CREATE VIEW `newsletter_stats` AS SELECT count(*) AS total,
  coalesce(sum(status = 'active'), 0) AS active,
  coalesce(sum(status = 'unsubscribed'), 0) AS unsubscribed,
  coalesce(sum(premium_subscriber = 1 AND status = 'active'), 0) AS premium,
  coalesce(sum(created_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-7 days')), 0) AS new_last_7_days,
  coalesce(sum(created_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-30 days')), 0) AS new_last_30_days
FROM newsletter_subscribers;--> statement-breakpoint
CREATE VIEW `premium_server_performance` AS SELECT s.id AS server_id, s.name AS name, s.slug AS slug, s.is_premium AS is_premium, s.is_sponsored AS is_sponsored,
  coalesce(sum(i.interaction_type = 'view'), 0) AS views,
  coalesce(sum(i.interaction_type = 'click'), 0) AS clicks,
  coalesce(sum(i.interaction_type = 'conversion'), 0) AS conversions,
  coalesce(sum(i.conversion_value), 0) AS total_revenue,
  round(coalesce(sum(CASE WHEN i.created_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-30 days') THEN i.conversion_value END), 0) / 30.0, 2) AS daily_revenue
FROM discord_servers s
LEFT JOIN user_interactions i ON i.server_id = s.id
WHERE s.is_premium = 1 OR s.is_sponsored = 1
GROUP BY s.id;--> statement-breakpoint
CREATE VIEW `server_analytics` AS SELECT server_id, substr(created_at, 1, 10) AS date,
  sum(interaction_type = 'view') AS views,
  sum(interaction_type = 'click') AS clicks,
  sum(interaction_type = 'signup') AS signups,
  sum(interaction_type = 'conversion') AS conversions,
  coalesce(sum(conversion_value), 0) AS revenue
FROM user_interactions
WHERE server_id IS NOT NULL
GROUP BY server_id, substr(created_at, 1, 10);