CREATE TABLE `group_participants` (
	`session_id` text NOT NULL,
	`group_id` text NOT NULL,
	`jid` text NOT NULL,
	`phone` text,
	`lid` text,
	`admin` text,
	PRIMARY KEY(`session_id`, `group_id`, `jid`),
	FOREIGN KEY (`session_id`,`group_id`) REFERENCES `groups`(`session_id`,`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `groups` (
	`session_id` text NOT NULL,
	`id` text NOT NULL,
	`subject` text NOT NULL,
	`description` text,
	`owner_jid` text,
	`owner_phone` text,
	`owner_lid` text,
	`announce` integer NOT NULL,
	`restrict` integer NOT NULL,
	`member_add_mode` integer NOT NULL,
	`addressing_mode` text NOT NULL,
	`ephemeral_seconds` integer,
	`group_created_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`session_id`, `id`),
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
