-- Refunds recorded before order_refunds (migration 0026): one row each, on the day of the order's refund.
INSERT INTO `order_refunds` (`order_id`, `event_id`, `amount_cents`, `created_at`)
SELECT `id`, NULL, `refunded_cents`, `refunded_at` FROM `orders` WHERE `refunded_cents` > 0 AND `refunded_at` IS NOT NULL;
