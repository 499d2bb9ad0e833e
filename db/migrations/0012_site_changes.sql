CREATE TABLE `site_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`reason` text NOT NULL,
	`page` text,
	`requested_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `site_changes_requested_idx` ON `site_changes` (`requested_at`);