ALTER TABLE `newsletter_issues` ADD `enqueued_through` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Issues already written: their progress is the last subscriber whose copy is in the outbox.
UPDATE `newsletter_issues` SET `enqueued_through` = coalesce((
  SELECT max(CAST(substr(m.dedupe_key, length('newsletter-issue:' || newsletter_issues.week || ':') + 1) AS INTEGER))
  FROM `mail_outbox` m
  WHERE m.kind = 'newsletter_issue'
    AND substr(m.dedupe_key, 1, length('newsletter-issue:' || newsletter_issues.week || ':')) = 'newsletter-issue:' || newsletter_issues.week || ':'
), 0);
