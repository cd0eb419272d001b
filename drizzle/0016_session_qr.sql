ALTER TABLE `sessions` ADD `qr_code` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `qr_offered_at` integer;