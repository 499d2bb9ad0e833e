DROP VIEW `premium_server_performance`;--> statement-breakpoint
CREATE VIEW `premium_server_revenue` AS SELECT o.server_id AS server_id, o.currency AS currency,
  sum(CASE WHEN o.paid_at IS NOT NULL AND o.kind = 'checkout' THEN o.amount_cents ELSE 0 END) - sum(o.refunded_cents) AS total_cents,
  CAST(round((coalesce(sum(CASE WHEN o.kind = 'checkout' AND o.paid_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-30 days') THEN o.amount_cents END), 0) - coalesce((SELECT sum(r.amount_cents) FROM order_refunds r JOIN orders ro ON ro.id = r.order_id WHERE ro.server_id = o.server_id AND ro.currency = o.currency AND r.created_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-30 days')), 0)) / 30.0) AS INTEGER) AS daily_cents
FROM orders o
WHERE o.server_id IS NOT NULL
GROUP BY o.server_id, o.currency;--> statement-breakpoint
CREATE VIEW `premium_server_performance` AS SELECT s.id AS server_id, s.name AS name, s.slug AS slug, s.is_premium AS is_premium, s.is_sponsored AS is_sponsored,
  coalesce((SELECT sum(i.interaction_type = 'view') FROM user_interactions i WHERE i.server_id = s.id), 0) AS views,
  coalesce((SELECT sum(i.interaction_type = 'click') FROM user_interactions i WHERE i.server_id = s.id), 0) AS clicks,
  coalesce((SELECT sum(i.interaction_type = 'conversion') FROM user_interactions i WHERE i.server_id = s.id), 0) AS conversions
FROM discord_servers s
WHERE s.is_premium = 1 OR s.is_sponsored = 1 OR EXISTS (SELECT 1 FROM orders o WHERE o.server_id = s.id AND o.paid_at IS NOT NULL);