CREATE TABLE `webhook_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`session_id` text,
	`url` text NOT NULL,
	`messages` integer NOT NULL,
	`events` text,
	`description` text,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_secret_expires_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_subscriptions_scope_idx` ON `webhook_subscriptions` (`workspace_id`,`session_id`);--> statement-breakpoint
DROP INDEX `webhook_deliveries_queue_idx`;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD `webhook_id` text REFERENCES webhook_subscriptions(id) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_queue_idx` ON `webhook_deliveries` (`status`,`session_id`,`webhook_id`,`position`);