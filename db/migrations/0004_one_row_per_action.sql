-- Issue #13: one action, one row, at SPEC section 9's value. Rows stored before the fix are made to
-- say the same: the page's save, unsave and share beacons were clicks (valued 1, or 5 on a premium
-- server, by the old insert), and reports and newsletter signups were stored twice.
-- metadata is read through CASE json_valid so a malformed value can never fail the migration.
UPDATE `user_interactions`
SET `interaction_type` = CASE WHEN json_valid(`metadata`) THEN json_extract(`metadata`, '$.action') END,
  `conversion_value` = NULL
WHERE `interaction_type` = 'click'
  AND (CASE WHEN json_valid(`metadata`) THEN json_extract(`metadata`, '$.action') END) IN ('save', 'unsave', 'share');
--> statement-breakpoint
-- A report: the server's row (no value) stays, as a report; the page's beacon (valued) goes.
DELETE FROM `user_interactions`
WHERE `interaction_type` = 'click'
  AND (CASE WHEN json_valid(`metadata`) THEN json_extract(`metadata`, '$.action') END) = 'report'
  AND `conversion_value` IS NOT NULL;
--> statement-breakpoint
UPDATE `user_interactions`
SET `interaction_type` = 'report', `conversion_value` = NULL
WHERE `interaction_type` = 'click'
  AND (CASE WHEN json_valid(`metadata`) THEN json_extract(`metadata`, '$.action') END) = 'report';
--> statement-breakpoint
-- A newsletter signup: the server's row names the subscriber; the page's beacon said 'homepage'.
DELETE FROM `user_interactions`
WHERE `interaction_type` = 'signup' AND `target_type` = 'newsletter' AND `target_id` = 'homepage';
