-- #15: listings approved before the freshness checks keep their invite only in the join link.
-- The refresh job checks a listing by its invite code, so take the code from links of the two
-- plain forms (https://discord.gg/CODE, https://discord.com/invite/CODE) with nothing after it.
-- Anything else stays unchecked until an operator or the owner sets a working invite.
UPDATE `discord_servers`
SET `invite_code` = substr(`affiliate_link`, 20)
WHERE `invite_code` IS NULL
  AND `affiliate_link` LIKE 'https://discord.gg/_%'
  AND substr(`affiliate_link`, 20) NOT GLOB '*[^A-Za-z0-9-]*';--> statement-breakpoint
UPDATE `discord_servers`
SET `invite_code` = substr(`affiliate_link`, 28)
WHERE `invite_code` IS NULL
  AND `affiliate_link` LIKE 'https://discord.com/invite/_%'
  AND substr(`affiliate_link`, 28) NOT GLOB '*[^A-Za-z0-9-]*';
