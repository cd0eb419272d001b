CREATE TABLE `contact_check_usage` (
	`workspace_id` text NOT NULL,
	`day` text NOT NULL,
	`used` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `day`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
