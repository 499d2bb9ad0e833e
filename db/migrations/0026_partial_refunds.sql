CREATE TABLE `order_refunds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer NOT NULL,
	`event_id` text,
	`amount_cents` integer NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `order_refunds_order_idx` ON `order_refunds` (`order_id`);--> statement-breakpoint
CREATE INDEX `order_refunds_created_idx` ON `order_refunds` (`created_at`);--> statement-breakpoint
DROP VIEW `daily_revenue`;--> statement-breakpoint
DROP VIEW `premium_server_performance`;--> statement-breakpoint
CREATE VIEW `daily_revenue` AS SELECT day, currency, sum(paid) AS paid_cents, sum(refunded) AS refunded_cents, sum(paid) - sum(refunded) AS net_cents FROM (
  SELECT substr(paid_at, 1, 10) AS day, currency, amount_cents AS paid, 0 AS refunded FROM orders WHERE paid_at IS NOT NULL AND kind = 'checkout'
  UNION ALL
  SELECT substr(r.created_at, 1, 10) AS day, o.currency AS currency, 0 AS paid, r.amount_cents AS refunded FROM order_refunds r JOIN orders o ON o.id = r.order_id
) GROUP BY day, currency;--> statement-breakpoint
CREATE VIEW `premium_server_performance` AS SELECT s.id AS server_id, s.name AS name, s.slug AS slug, s.is_premium AS is_premium, s.is_sponsored AS is_sponsored,
  coalesce((SELECT sum(i.interaction_type = 'view') FROM user_interactions i WHERE i.server_id = s.id), 0) AS views,
  coalesce((SELECT sum(i.interaction_type = 'click') FROM user_interactions i WHERE i.server_id = s.id), 0) AS clicks,
  coalesce((SELECT sum(i.interaction_type = 'conversion') FROM user_interactions i WHERE i.server_id = s.id), 0) AS conversions,
  coalesce((SELECT sum(CASE WHEN o.paid_at IS NOT NULL AND o.kind = 'checkout' THEN o.amount_cents ELSE 0 END) - sum(o.refunded_cents) FROM orders o WHERE o.server_id = s.id), 0) / 100.0 AS total_revenue,
  round((coalesce((SELECT sum(o.amount_cents) FROM orders o WHERE o.server_id = s.id AND o.kind = 'checkout' AND o.paid_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-30 days')), 0) - coalesce((SELECT sum(r.amount_cents) FROM order_refunds r JOIN orders o ON o.id = r.order_id WHERE o.server_id = s.id AND r.created_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-30 days')), 0)) / 100.0 / 30.0, 2) AS daily_revenue
FROM discord_servers s
WHERE s.is_premium = 1 OR s.is_sponsored = 1 OR EXISTS (SELECT 1 FROM orders o WHERE o.server_id = s.id AND o.paid_at IS NOT NULL);