CREATE TABLE `chat_states` (
	`session_id` text NOT NULL,
	`chat` text NOT NULL,
	`name` text,
	`archived` integer DEFAULT false NOT NULL,
	`pinned` integer DEFAULT false NOT NULL,
	`muted_until` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`session_id`, `chat`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `history_chunks` (
	`session_id` text NOT NULL,
	`id` text NOT NULL,
	`sync_type` text NOT NULL,
	`chunk_order` integer NOT NULL,
	`progress` integer NOT NULL,
	`notification` blob NOT NULL,
	`state` text NOT NULL,
	`state_reason` text,
	`chats` integer DEFAULT 0 NOT NULL,
	`messages` integer DEFAULT 0 NOT NULL,
	`contacts` integer DEFAULT 0 NOT NULL,
	`skipped` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`session_id`, `id`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `history_chunks_state_idx` ON `history_chunks` (`state`);--> statement-breakpoint
ALTER TABLE `sessions` ADD `history` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `history_synced_at` integer;