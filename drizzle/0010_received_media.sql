CREATE TABLE `gateway_secrets` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `media_files` (
	`session_id` text NOT NULL,
	`message_id` text NOT NULL,
	`size` integer NOT NULL,
	`stored_at` integer NOT NULL,
	PRIMARY KEY(`session_id`, `message_id`)
);
--> statement-breakpoint
CREATE INDEX `media_files_stored_idx` ON `media_files` (`stored_at`);