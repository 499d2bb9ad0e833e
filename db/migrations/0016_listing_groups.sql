CREATE TABLE `listing_groups` (
	`is_active` integer NOT NULL,
	`category` text NOT NULL,
	`subcategory` text NOT NULL,
	`invite_status` text NOT NULL,
	`region` text NOT NULL,
	`paid` integer NOT NULL,
	`servers` integer NOT NULL,
	`members` integer NOT NULL,
	`active_users` integer NOT NULL,
	PRIMARY KEY(`is_active`, `category`, `subcategory`, `invite_status`, `region`, `paid`)
);
--> statement-breakpoint
CREATE INDEX `discord_servers_listed_idx` ON `discord_servers` (`id`,`is_active`,`category`,`invite_status`);
--> statement-breakpoint
-- Kept in step with discord_servers by these triggers; db/queries/bulk-load.ts sets them aside and fills the table again (refillListingGroups).
CREATE TRIGGER `discord_servers_groups_ai` AFTER INSERT ON `discord_servers` BEGIN
  INSERT INTO `listing_groups` (`is_active`, `category`, `subcategory`, `invite_status`, `region`, `paid`, `servers`, `members`, `active_users`)
  VALUES (new.is_active, new.category, ifnull(new.subcategory, ''), new.invite_status, ifnull(new.region, ''), (new.is_premium OR new.is_sponsored), 1, new.members, new.active_users)
  ON CONFLICT (`is_active`, `category`, `subcategory`, `invite_status`, `region`, `paid`) DO UPDATE SET `servers` = `servers` + 1, `members` = `members` + excluded.`members`, `active_users` = `active_users` + excluded.`active_users`;
END;
--> statement-breakpoint
CREATE TRIGGER `discord_servers_groups_ad` AFTER DELETE ON `discord_servers` BEGIN
  UPDATE `listing_groups` SET `servers` = `servers` - 1, `members` = `members` - old.members, `active_users` = `active_users` - old.active_users
  WHERE `is_active` = old.is_active AND `category` = old.category AND `subcategory` = ifnull(old.subcategory, '') AND `invite_status` = old.invite_status AND `region` = ifnull(old.region, '') AND `paid` = (old.is_premium OR old.is_sponsored);
END;
--> statement-breakpoint
CREATE TRIGGER `discord_servers_groups_au` AFTER UPDATE OF is_active, category, subcategory, invite_status, region, is_premium, is_sponsored, members, active_users ON `discord_servers` BEGIN
  UPDATE `listing_groups` SET `servers` = `servers` - 1, `members` = `members` - old.members, `active_users` = `active_users` - old.active_users
  WHERE `is_active` = old.is_active AND `category` = old.category AND `subcategory` = ifnull(old.subcategory, '') AND `invite_status` = old.invite_status AND `region` = ifnull(old.region, '') AND `paid` = (old.is_premium OR old.is_sponsored);
  INSERT INTO `listing_groups` (`is_active`, `category`, `subcategory`, `invite_status`, `region`, `paid`, `servers`, `members`, `active_users`)
  VALUES (new.is_active, new.category, ifnull(new.subcategory, ''), new.invite_status, ifnull(new.region, ''), (new.is_premium OR new.is_sponsored), 1, new.members, new.active_users)
  ON CONFLICT (`is_active`, `category`, `subcategory`, `invite_status`, `region`, `paid`) DO UPDATE SET `servers` = `servers` + 1, `members` = `members` + excluded.`members`, `active_users` = `active_users` + excluded.`active_users`;
END;
--> statement-breakpoint
INSERT INTO `listing_groups` (`is_active`, `category`, `subcategory`, `invite_status`, `region`, `paid`, `servers`, `members`, `active_users`)
  SELECT is_active, category, ifnull(subcategory, ''), invite_status, ifnull(region, ''), (is_premium OR is_sponsored), count(*), sum(members), sum(active_users)
  FROM `discord_servers` GROUP BY 1, 2, 3, 4, 5, 6;
