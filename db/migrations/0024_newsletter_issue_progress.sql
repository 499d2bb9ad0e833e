ALTER TABLE `newsletter_issues` ADD `enqueued_through` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Issues already written: their progress is the last subscriber whose copy is in the outbox.
UPDATE `newsletter_issues` SET `enqueued_through` = coalesce((
  SELECT max(CAST(substr(m.dedupe_key, length('newsletter-issue:' || newsletter_issues.week || ':') + 1) AS INTEGER))
  FROM `mail_outbox` m
  WHERE m.kind = 'newsletter_issue'
    -- A range of the unique index on dedupe_key (';' follows ':'), not a scan of the outbox per issue.
    AND m.dedupe_key >= 'newsletter-issue:' || newsletter_issues.week || ':'
    AND m.dedupe_key < 'newsletter-issue:' || newsletter_issues.week || ';'
), 0);
