CREATE TABLE `badge_fetches` (
	`server_id` integer NOT NULL,
	`day` text NOT NULL,
	`fetches` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`server_id`, `day`),
	FOREIGN KEY (`server_id`) REFERENCES `discord_servers`(`id`) ON UPDATE no action ON DELETE cascade
);
