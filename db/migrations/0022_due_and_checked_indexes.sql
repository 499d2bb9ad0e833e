DROP INDEX `discord_servers_next_check_idx`;--> statement-breakpoint
CREATE INDEX `discord_servers_due_idx` ON `discord_servers` (`next_check_at`,`id`) WHERE invite_code IS NOT NULL;--> statement-breakpoint
CREATE INDEX `discord_servers_checked_idx` ON `discord_servers` (`last_checked_at`) WHERE last_checked_at IS NOT NULL;