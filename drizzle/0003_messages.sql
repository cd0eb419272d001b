CREATE TABLE `messages` (
	`session_id` text NOT NULL,
	`id` text NOT NULL,
	`chat_jid` text NOT NULL,
	`phone` text,
	`lid` text,
	`participant` text,
	`direction` text NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`status_reason` text,
	`quote_id` text,
	`content` text NOT NULL,
	`payload` blob,
	`edited_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`session_id`, `id`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `messages_session_created_idx` ON `messages` (`session_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `messages_created_idx` ON `messages` (`created_at`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`workspace_id` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`session_id` text NOT NULL,
	`message_id` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `key`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
