DROP VIEW `server_analytics`;--> statement-breakpoint
CREATE VIEW `server_analytics` AS SELECT server_id, substr(created_at, 1, 10) AS date,
  sum(interaction_type = 'view') AS views,
  sum(interaction_type = 'click') AS clicks,
  sum(interaction_type = 'signup') AS signups,
  sum(interaction_type = 'conversion') AS conversions,
  coalesce(sum(conversion_value), 0) AS worth
FROM user_interactions
WHERE server_id IS NOT NULL
GROUP BY server_id, substr(created_at, 1, 10);