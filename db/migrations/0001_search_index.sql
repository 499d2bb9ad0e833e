-- Trigram full-text index over name and description: case-insensitive substring search
-- that stays fast at 100,000+ servers (plain LIKE '%term%' scans every row).
CREATE VIRTUAL TABLE `discord_servers_fts` USING fts5(name, description, content='discord_servers', content_rowid='id', tokenize='trigram case_sensitive 0');
--> statement-breakpoint
INSERT INTO `discord_servers_fts`(rowid, name, description) SELECT id, name, description FROM `discord_servers`;
--> statement-breakpoint
CREATE TRIGGER `discord_servers_fts_ai` AFTER INSERT ON `discord_servers` BEGIN
  INSERT INTO `discord_servers_fts`(rowid, name, description) VALUES (new.id, new.name, new.description);
END;
--> statement-breakpoint
CREATE TRIGGER `discord_servers_fts_ad` AFTER DELETE ON `discord_servers` BEGIN
  INSERT INTO `discord_servers_fts`(`discord_servers_fts`, rowid, name, description) VALUES ('delete', old.id, old.name, old.description);
END;
--> statement-breakpoint
CREATE TRIGGER `discord_servers_fts_au` AFTER UPDATE OF name, description ON `discord_servers` BEGIN
  INSERT INTO `discord_servers_fts`(`discord_servers_fts`, rowid, name, description) VALUES ('delete', old.id, old.name, old.description);
  INSERT INTO `discord_servers_fts`(rowid, name, description) VALUES (new.id, new.name, new.description);
END;
