CREATE TABLE `server_slugs` (
	`slug` text PRIMARY KEY NOT NULL,
	`server_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `discord_servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `server_slugs_server_idx` ON `server_slugs` (`server_id`);--> statement-breakpoint
ALTER TABLE `server_submissions` ADD `subcategory` text;--> statement-breakpoint
-- The search index covers tags too (the search box promises "name or topic"): rebuilt with a
-- third column holding a server's tags as space-separated text, the same transform on insert,
-- update and delete so the external-content index stays consistent.
DROP TRIGGER `discord_servers_fts_ai`;
--> statement-breakpoint
DROP TRIGGER `discord_servers_fts_ad`;
--> statement-breakpoint
DROP TRIGGER `discord_servers_fts_au`;
--> statement-breakpoint
DROP TABLE `discord_servers_fts`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `discord_servers_fts` USING fts5(name, description, tags, content='discord_servers', content_rowid='id', tokenize='trigram case_sensitive 0');
--> statement-breakpoint
INSERT INTO `discord_servers_fts`(rowid, name, description, tags) SELECT id, name, description, (SELECT group_concat(value, ' ') FROM json_each(tags)) FROM `discord_servers`;
--> statement-breakpoint
CREATE TRIGGER `discord_servers_fts_ai` AFTER INSERT ON `discord_servers` BEGIN
  INSERT INTO `discord_servers_fts`(rowid, name, description, tags) VALUES (new.id, new.name, new.description, (SELECT group_concat(value, ' ') FROM json_each(new.tags)));
END;
--> statement-breakpoint
CREATE TRIGGER `discord_servers_fts_ad` AFTER DELETE ON `discord_servers` BEGIN
  INSERT INTO `discord_servers_fts`(`discord_servers_fts`, rowid, name, description, tags) VALUES ('delete', old.id, old.name, old.description, (SELECT group_concat(value, ' ') FROM json_each(old.tags)));
END;
--> statement-breakpoint
CREATE TRIGGER `discord_servers_fts_au` AFTER UPDATE OF name, description, tags ON `discord_servers` BEGIN
  INSERT INTO `discord_servers_fts`(`discord_servers_fts`, rowid, name, description, tags) VALUES ('delete', old.id, old.name, old.description, (SELECT group_concat(value, ' ') FROM json_each(old.tags)));
  INSERT INTO `discord_servers_fts`(rowid, name, description, tags) VALUES (new.id, new.name, new.description, (SELECT group_concat(value, ' ') FROM json_each(new.tags)));
END;
