CREATE TABLE `status_audiences` (
	`session_id` text NOT NULL,
	`message_id` text NOT NULL,
	`contacts` text NOT NULL,
	PRIMARY KEY(`session_id`, `message_id`),
	FOREIGN KEY (`session_id`,`message_id`) REFERENCES `messages`(`session_id`,`id`) ON UPDATE no action ON DELETE cascade
);
