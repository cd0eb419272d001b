CREATE TABLE `label_chats` (
	`session_id` text NOT NULL,
	`label_id` text NOT NULL,
	`chat` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`session_id`, `label_id`, `chat`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `label_chats_chat_idx` ON `label_chats` (`session_id`,`chat`);--> statement-breakpoint
CREATE TABLE `label_messages` (
	`session_id` text NOT NULL,
	`label_id` text NOT NULL,
	`message_id` text NOT NULL,
	`chat_jid` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`session_id`, `label_id`, `chat_jid`, `message_id`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `labels` (
	`session_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`color` integer NOT NULL,
	`predefined_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`session_id`, `id`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
