CREATE INDEX `discord_servers_active_category_invite_idx` ON `discord_servers` (`is_active`,`category`,`invite_status`,`last_ok_at`);--> statement-breakpoint
CREATE INDEX `discord_servers_active_rank_idx` ON `discord_servers` (`is_active`,`rank_score`,`members`);--> statement-breakpoint
CREATE INDEX `discord_servers_active_created_idx` ON `discord_servers` (`is_active`,`created_at`);--> statement-breakpoint
CREATE INDEX `discord_servers_active_growth_idx` ON `discord_servers` (`is_active`,`growth_30d`,`members`);