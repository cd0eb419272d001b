CREATE TABLE `chatwoot_chats` (
	`session_id` text NOT NULL,
	`chat_key` text NOT NULL,
	`phone` text,
	`lid` text,
	`contact_id` integer,
	`source_id` text NOT NULL,
	`conversation_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`session_id`, `chat_key`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chatwoot_chats_phone_idx` ON `chatwoot_chats` (`session_id`,`phone`);--> statement-breakpoint
CREATE INDEX `chatwoot_chats_lid_idx` ON `chatwoot_chats` (`session_id`,`lid`);--> statement-breakpoint
CREATE INDEX `chatwoot_chats_conversation_idx` ON `chatwoot_chats` (`session_id`,`conversation_id`);--> statement-breakpoint
CREATE TABLE `chatwoot_configs` (
	`session_id` text PRIMARY KEY NOT NULL,
	`subscription_id` text NOT NULL,
	`account_id` integer NOT NULL,
	`api_token` text NOT NULL,
	`inbox_id` integer NOT NULL,
	`inbox_name` text NOT NULL,
	`sign_agent_name` integer NOT NULL,
	`reopen_resolved` integer NOT NULL,
	`start_pending` integer NOT NULL,
	`ignore_groups` integer NOT NULL,
	`last_error` text,
	`last_error_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subscription_id`) REFERENCES `webhook_subscriptions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `chatwoot_configs_subscription_id_unique` ON `chatwoot_configs` (`subscription_id`);--> statement-breakpoint
CREATE TABLE `chatwoot_messages` (
	`session_id` text NOT NULL,
	`wa_message_id` text NOT NULL,
	`chatwoot_message_id` integer,
	`conversation_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`session_id`, `wa_message_id`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chatwoot_messages_chatwoot_idx` ON `chatwoot_messages` (`session_id`,`chatwoot_message_id`);--> statement-breakpoint
ALTER TABLE `webhook_subscriptions` ADD `kind` text DEFAULT 'webhook' NOT NULL;--> statement-breakpoint
CREATE INDEX `idempotency_keys_message_idx` ON `idempotency_keys` (`session_id`,`message_id`);