CREATE TABLE `moderation_decisions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`submission_id` integer,
	`server_id` integer,
	`server_name` text NOT NULL,
	`reasons` text NOT NULL,
	`requirement` text,
	`note` text,
	`contact_email` text,
	`operator_id` integer,
	`appeal_key` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`appeal_text` text,
	`appealed_at` text,
	`appeal_outcome` text,
	`appeal_note` text,
	`appeal_decided_by` integer,
	`appeal_decided_at` text,
	FOREIGN KEY (`submission_id`) REFERENCES `server_submissions`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`server_id`) REFERENCES `discord_servers`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`appeal_decided_by`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `moderation_decisions_appeal_key_unique` ON `moderation_decisions` (`appeal_key`);--> statement-breakpoint
CREATE INDEX `moderation_decisions_created_idx` ON `moderation_decisions` (`created_at`);--> statement-breakpoint
CREATE INDEX `moderation_decisions_appealed_idx` ON `moderation_decisions` (`appealed_at`);--> statement-breakpoint
CREATE INDEX `moderation_decisions_submission_idx` ON `moderation_decisions` (`submission_id`);--> statement-breakpoint
CREATE TABLE `webhook_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer NOT NULL,
	`event` text NOT NULL,
	`dedupe_key` text NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`last_error` text,
	`sent_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `owner_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_outbox_dedupe_unique` ON `webhook_outbox` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `webhook_outbox_status_next_idx` ON `webhook_outbox` (`status`,`next_attempt_at`);--> statement-breakpoint
ALTER TABLE `owner_users` ADD `webhook_url` text;--> statement-breakpoint
ALTER TABLE `owner_users` ADD `webhook_disabled_at` text;--> statement-breakpoint
ALTER TABLE `server_submissions` ADD `decided_at` text;--> statement-breakpoint
CREATE INDEX `server_submissions_decided_idx` ON `server_submissions` (`decided_at`);--> statement-breakpoint
-- Decisions made before #32 count in the queue figures from their last change.
UPDATE `server_submissions` SET `decided_at` = `updated_at` WHERE `status` IN ('approved', 'rejected');
