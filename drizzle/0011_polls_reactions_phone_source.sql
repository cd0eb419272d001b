CREATE TABLE `poll_votes` (
	`session_id` text NOT NULL,
	`poll_id` text NOT NULL,
	`voter` text NOT NULL,
	`voter_phone` text,
	`voter_lid` text,
	`vote_id` text NOT NULL,
	`options` text NOT NULL,
	`voted_at` integer NOT NULL,
	PRIMARY KEY(`session_id`, `poll_id`, `voter`),
	FOREIGN KEY (`session_id`,`poll_id`) REFERENCES `messages`(`session_id`,`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `messages` ADD `source` text;