CREATE TABLE `listing_edits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`server_id` integer NOT NULL,
	`owner_id` integer,
	`changes` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`admin_notes` text,
	`decided_by` text,
	`decided_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `discord_servers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`owner_id`) REFERENCES `owner_users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `listing_edits_status_created_idx` ON `listing_edits` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `listing_edits_server_idx` ON `listing_edits` (`server_id`);--> statement-breakpoint
CREATE TABLE `mail_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`dedupe_key` text NOT NULL,
	`to_address` text NOT NULL,
	`reply_to` text,
	`subject` text NOT NULL,
	`text_body` text NOT NULL,
	`html_body` text NOT NULL,
	`headers` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_error` text,
	`message_id` text,
	`sent_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mail_outbox_dedupe_unique` ON `mail_outbox` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `mail_outbox_status_next_idx` ON `mail_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `mail_outbox_created_idx` ON `mail_outbox` (`created_at`);--> statement-breakpoint
CREATE TABLE `newsletter_issues` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`week` text NOT NULL,
	`subject` text NOT NULL,
	`content` text NOT NULL,
	`recipient_count` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `newsletter_issues_week_unique` ON `newsletter_issues` (`week`);--> statement-breakpoint
CREATE TABLE `owner_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` integer NOT NULL,
	`csrf_token` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_seen_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `owner_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `owner_sessions_owner_idx` ON `owner_sessions` (`owner_id`);--> statement-breakpoint
CREATE INDEX `owner_sessions_expires_idx` ON `owner_sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `owner_users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`discord_user_id` text NOT NULL,
	`username` text NOT NULL,
	`global_name` text,
	`avatar` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_login_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `owner_users_discord_unique` ON `owner_users` (`discord_user_id`);--> statement-breakpoint
CREATE TABLE `server_claims` (
	`server_id` integer NOT NULL,
	`owner_id` integer NOT NULL,
	`proof` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`checked_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`server_id`, `owner_id`),
	FOREIGN KEY (`server_id`) REFERENCES `discord_servers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`owner_id`) REFERENCES `owner_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `server_claims_owner_idx` ON `server_claims` (`owner_id`);--> statement-breakpoint
ALTER TABLE `discord_servers` ADD `language` text;--> statement-breakpoint
ALTER TABLE `discord_servers` ADD `region` text;--> statement-breakpoint
ALTER TABLE `discord_servers` ADD `placement_started_at` text;--> statement-breakpoint
ALTER TABLE `discord_servers` ADD `placement_ends_at` text;--> statement-breakpoint
CREATE INDEX `discord_servers_active_language_idx` ON `discord_servers` (`is_active`,`language`,`members`);--> statement-breakpoint
ALTER TABLE `server_submissions` ADD `language` text;--> statement-breakpoint
ALTER TABLE `server_submissions` ADD `region` text;--> statement-breakpoint
ALTER TABLE `server_submissions` ADD `owner_id` integer REFERENCES owner_users(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `server_submissions` ADD `owner_verified` integer DEFAULT false NOT NULL;