ALTER TABLE `site_changes` ADD `scope` text DEFAULT 'site' NOT NULL;--> statement-breakpoint
ALTER TABLE `site_changes` ADD `hook_called_at` integer;