ALTER TABLE `orders` ADD `reconcile_checked_at` text;--> statement-breakpoint
CREATE INDEX `orders_reconcile_idx` ON `orders` (`reconcile_checked_at`,`id`) WHERE state = 'open';