CREATE TABLE `client_budgets` (
	`name` text PRIMARY KEY NOT NULL,
	`window_start` text NOT NULL,
	`window_count` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `client_budgets_window_idx` ON `client_budgets` (`window_start`);--> statement-breakpoint
CREATE TABLE `invite_answers` (
	`code` text PRIMARY KEY NOT NULL,
	`answer` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `invite_answers_expires_idx` ON `invite_answers` (`expires_at`);--> statement-breakpoint
CREATE TABLE `oauth_states` (
	`id` text PRIMARY KEY NOT NULL,
	`used_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `owner_sessions` ADD `guilds` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `owner_users` ADD `managed_guilds` text;--> statement-breakpoint
ALTER TABLE `server_submissions` ADD `owner_proven_at` text;--> statement-breakpoint
CREATE INDEX `mail_outbox_to_created_idx` ON `mail_outbox` (`to_address`,`created_at`);