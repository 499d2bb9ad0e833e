ALTER TABLE `server_submissions` ADD `owner_proof` text;--> statement-breakpoint
-- Submissions sent before this column recorded their proof in the audit log ('owner_submit').
UPDATE `server_submissions`
SET `owner_proof` = (
  SELECT json_extract(a.`details`, '$.proof') FROM `audit_log` a
  WHERE a.`action` = 'owner_submit' AND a.`entity` = 'submission' AND a.`entity_id` = CAST(`server_submissions`.`id` AS TEXT)
    AND json_extract(a.`details`, '$.proof') IN ('owner', 'manage_guild')
  ORDER BY a.`id` DESC LIMIT 1
)
WHERE `owner_verified` = 1 AND `owner_proof` IS NULL;
