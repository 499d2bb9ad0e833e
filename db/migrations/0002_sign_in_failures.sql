CREATE TABLE `sign_in_failures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ip_hash` text NOT NULL,
	`email_hash` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sign_in_failures_ip_created_idx` ON `sign_in_failures` (`ip_hash`,`created_at`);--> statement-breakpoint
CREATE INDEX `sign_in_failures_created_idx` ON `sign_in_failures` (`created_at`);--> statement-breakpoint
ALTER TABLE `operators` DROP COLUMN `failed_attempts`;--> statement-breakpoint
ALTER TABLE `operators` DROP COLUMN `locked_until`;