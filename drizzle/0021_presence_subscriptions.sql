CREATE TABLE `presence_subscriptions` (
	`session_id` text NOT NULL,
	`jid` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`session_id`, `jid`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
