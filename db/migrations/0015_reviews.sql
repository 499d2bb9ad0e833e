CREATE TABLE `account_settings` (
	`account_id` integer PRIMARY KEY NOT NULL,
	`email` text,
	`mail_new_reviews` integer DEFAULT true NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `owner_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `review_flags` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`review_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`reason` text NOT NULL,
	`details` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`resolved_at` text,
	FOREIGN KEY (`review_id`) REFERENCES `reviews`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `owner_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `review_flags_review_account_unique` ON `review_flags` (`review_id`,`account_id`);--> statement-breakpoint
CREATE INDEX `review_flags_open_idx` ON `review_flags` (`resolved_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `review_proofs` (
	`account_id` integer NOT NULL,
	`server_id` integer NOT NULL,
	`member` integer NOT NULL,
	`role` text,
	`joined_at` text,
	`checked_at` text NOT NULL,
	PRIMARY KEY(`account_id`, `server_id`),
	FOREIGN KEY (`account_id`) REFERENCES `owner_users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`server_id`) REFERENCES `discord_servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `review_replies` (
	`review_id` integer PRIMARY KEY NOT NULL,
	`account_id` integer NOT NULL,
	`body` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`edited_at` text,
	FOREIGN KEY (`review_id`) REFERENCES `reviews`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `owner_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `review_replies_account_idx` ON `review_replies` (`account_id`);--> statement-breakpoint
CREATE TABLE `reviews` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`server_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`rating` integer NOT NULL,
	`body` text NOT NULL,
	`display_name` text NOT NULL,
	`member_since` text NOT NULL,
	`status` text DEFAULT 'shown' NOT NULL,
	`hidden_reason` text,
	`held_reason` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`edited_at` text,
	`moderated_by` text,
	`moderated_at` text,
	FOREIGN KEY (`server_id`) REFERENCES `discord_servers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `owner_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reviews_server_account_unique` ON `reviews` (`server_id`,`account_id`);--> statement-breakpoint
CREATE INDEX `reviews_server_status_created_idx` ON `reviews` (`server_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `reviews_account_idx` ON `reviews` (`account_id`);--> statement-breakpoint
CREATE INDEX `reviews_status_created_idx` ON `reviews` (`status`,`created_at`);--> statement-breakpoint
ALTER TABLE `discord_servers` ADD `review_count` integer DEFAULT 0 NOT NULL;