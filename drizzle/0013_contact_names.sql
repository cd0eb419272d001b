CREATE TABLE `contact_names` (
	`session_id` text NOT NULL,
	`contact` text NOT NULL,
	`phone` text,
	`lid` text,
	`push_name` text NOT NULL,
	`seen_at` integer NOT NULL,
	PRIMARY KEY(`session_id`, `contact`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_names_lid_idx` ON `contact_names` (`session_id`,`lid`);