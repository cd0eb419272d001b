CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`status` text NOT NULL,
	`status_reason` text,
	`number` text,
	`lid` text,
	`webhook_url` text NOT NULL,
	`webhook_messages` integer NOT NULL,
	`webhook_secret` text NOT NULL,
	`auto_reject_calls` integer DEFAULT false NOT NULL,
	`pairing_mode` text DEFAULT 'qr' NOT NULL,
	`pairing_number` text,
	`last_seen` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_workspace_name_unique` ON `sessions` (`workspace_id`,`name`);--> statement-breakpoint
CREATE INDEX `sessions_status_idx` ON `sessions` (`status`);--> statement-breakpoint
CREATE TABLE `wa_auth` (
	`session_id` text NOT NULL,
	`category` text NOT NULL,
	`key_id` text NOT NULL,
	`value` text NOT NULL,
	PRIMARY KEY(`session_id`, `category`, `key_id`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
