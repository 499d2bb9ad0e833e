-- Orders outlive their listing (set null, with the listing's name kept): an order is a record of money.
-- The two views over orders are dropped for the table's rebuild and made again as they were (0013).
DROP VIEW `daily_revenue`;--> statement-breakpoint
DROP VIEW `premium_server_performance`;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`server_id` integer,
	`server_name` text DEFAULT '' NOT NULL,
	`owner_id` integer,
	`plan_id` integer,
	`kind` text DEFAULT 'checkout' NOT NULL,
	`placement` text NOT NULL,
	`category` text NOT NULL,
	`term_days` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`state` text DEFAULT 'open' NOT NULL,
	`version` text NOT NULL,
	`stripe_session_id` text,
	`checkout_url` text,
	`checkout_expires_at` text,
	`stripe_payment_intent` text,
	`customer_email` text,
	`paid_at` text,
	`starts_at` text,
	`ends_at` text,
	`refunded_cents` integer DEFAULT 0 NOT NULL,
	`refunded_at` text,
	`refund_reason` text,
	`granted_by` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `discord_servers`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`owner_id`) REFERENCES `owner_users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`plan_id`) REFERENCES `plans`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_orders`("id", "server_id", "server_name", "owner_id", "plan_id", "kind", "placement", "category", "term_days", "amount_cents", "currency", "state", "version", "stripe_session_id", "checkout_url", "checkout_expires_at", "stripe_payment_intent", "customer_email", "paid_at", "starts_at", "ends_at", "refunded_cents", "refunded_at", "refund_reason", "granted_by", "created_at", "updated_at") SELECT "id", "server_id", coalesce((SELECT s."name" FROM `discord_servers` s WHERE s."id" = `orders`."server_id"), ''), "owner_id", "plan_id", "kind", "placement", "category", "term_days", "amount_cents", "currency", "state", "version", "stripe_session_id", "checkout_url", "checkout_expires_at", "stripe_payment_intent", "customer_email", "paid_at", "starts_at", "ends_at", "refunded_cents", "refunded_at", "refund_reason", "granted_by", "created_at", "updated_at" FROM `orders`;--> statement-breakpoint
DROP TABLE `orders`;--> statement-breakpoint
ALTER TABLE `__new_orders` RENAME TO `orders`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `orders_session_unique` ON `orders` (`stripe_session_id`) WHERE stripe_session_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `orders_open_unique` ON `orders` (`server_id`,`plan_id`) WHERE state = 'open';--> statement-breakpoint
CREATE INDEX `orders_payment_intent_idx` ON `orders` (`stripe_payment_intent`);--> statement-breakpoint
CREATE INDEX `orders_state_idx` ON `orders` (`state`,`ends_at`);--> statement-breakpoint
CREATE INDEX `orders_slots_idx` ON `orders` (`placement`,`category`,`state`,`ends_at`);--> statement-breakpoint
CREATE INDEX `orders_server_idx` ON `orders` (`server_id`);--> statement-breakpoint
CREATE VIEW `daily_revenue` AS SELECT day, currency, sum(paid) AS paid_cents, sum(refunded) AS refunded_cents, sum(paid) - sum(refunded) AS net_cents FROM (
  SELECT substr(paid_at, 1, 10) AS day, currency, amount_cents AS paid, 0 AS refunded FROM orders WHERE paid_at IS NOT NULL AND kind = 'checkout'
  UNION ALL
  SELECT substr(refunded_at, 1, 10) AS day, currency, 0 AS paid, refunded_cents AS refunded FROM orders WHERE refunded_at IS NOT NULL AND refunded_cents > 0
) GROUP BY day, currency;--> statement-breakpoint
CREATE VIEW `premium_server_performance` AS SELECT s.id AS server_id, s.name AS name, s.slug AS slug, s.is_premium AS is_premium, s.is_sponsored AS is_sponsored,
  coalesce((SELECT sum(i.interaction_type = 'view') FROM user_interactions i WHERE i.server_id = s.id), 0) AS views,
  coalesce((SELECT sum(i.interaction_type = 'click') FROM user_interactions i WHERE i.server_id = s.id), 0) AS clicks,
  coalesce((SELECT sum(i.interaction_type = 'conversion') FROM user_interactions i WHERE i.server_id = s.id), 0) AS conversions,
  coalesce((SELECT sum(CASE WHEN o.paid_at IS NOT NULL AND o.kind = 'checkout' THEN o.amount_cents ELSE 0 END) - sum(o.refunded_cents) FROM orders o WHERE o.server_id = s.id), 0) / 100.0 AS total_revenue,
  round(coalesce((SELECT sum(CASE WHEN o.paid_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-30 days') AND o.kind = 'checkout' THEN o.amount_cents ELSE 0 END) - sum(CASE WHEN o.refunded_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-30 days') THEN o.refunded_cents ELSE 0 END) FROM orders o WHERE o.server_id = s.id), 0) / 100.0 / 30.0, 2) AS daily_revenue
FROM discord_servers s
WHERE s.is_premium = 1 OR s.is_sponsored = 1 OR EXISTS (SELECT 1 FROM orders o WHERE o.server_id = s.id AND o.paid_at IS NOT NULL);
