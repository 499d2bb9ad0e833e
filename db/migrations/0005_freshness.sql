CREATE TABLE `job_state` (
	`name` text PRIMARY KEY NOT NULL,
	`lease_until` text DEFAULT '' NOT NULL,
	`lease_holder` text,
	`blocked_until` text DEFAULT '' NOT NULL,
	`block_reason` text,
	`block_level` integer DEFAULT 0 NOT NULL,
	`window_start` text DEFAULT '' NOT NULL,
	`window_count` integer DEFAULT 0 NOT NULL,
	`last_run_at` text,
	`last_run_summary` text
);
--> statement-breakpoint
CREATE TABLE `server_flags` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`server_id` integer NOT NULL,
	`rule` text NOT NULL,
	`detail` text NOT NULL,
	`opened_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`closed_at` text,
	`verdict` text,
	`reviewed_by` text,
	FOREIGN KEY (`server_id`) REFERENCES `discord_servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `server_flags_open_unique` ON `server_flags` (`server_id`,`rule`) WHERE closed_at IS NULL;--> statement-breakpoint
CREATE TABLE `server_snapshots` (
	`server_id` integer NOT NULL,
	`checked_at` text NOT NULL,
	`outcome` text NOT NULL,
	`member_count` integer,
	`online_count` integer,
	PRIMARY KEY(`server_id`, `checked_at`),
	FOREIGN KEY (`server_id`) REFERENCES `discord_servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `discord_servers` ADD `guild_id` text;--> statement-breakpoint
ALTER TABLE `discord_servers` ADD `guild_icon` text;--> statement-breakpoint
ALTER TABLE `discord_servers` ADD `invite_code` text;--> statement-breakpoint
ALTER TABLE `discord_servers` ADD `invite_status` text DEFAULT 'unchecked' NOT NULL;--> statement-breakpoint
ALTER TABLE `discord_servers` ADD `last_checked_at` text;--> statement-breakpoint
ALTER TABLE `discord_servers` ADD `last_ok_at` text;--> statement-breakpoint
ALTER TABLE `discord_servers` ADD `next_check_at` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `discord_servers` ADD `fail_streak` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `discord_servers` ADD `first_fail_at` text;--> statement-breakpoint
ALTER TABLE `discord_servers` ADD `transient_streak` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `discord_servers` ADD `rank_score` real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `discord_servers` ADD `rank_explain` text;--> statement-breakpoint
ALTER TABLE `discord_servers` ADD `growth_30d` real DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `discord_servers_guild_unique` ON `discord_servers` (`guild_id`) WHERE guild_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `discord_servers_next_check_idx` ON `discord_servers` (`next_check_at`);--> statement-breakpoint
ALTER TABLE `server_submissions` ADD `guild_id` text;--> statement-breakpoint
ALTER TABLE `server_submissions` ADD `guild_icon` text;--> statement-breakpoint
ALTER TABLE `server_submissions` ADD `invite_code` text;