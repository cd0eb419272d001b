CREATE TABLE `session_list_versions` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER `sessions_inserted_bumps_list_version` AFTER INSERT ON `sessions` BEGIN INSERT INTO `session_list_versions` (`workspace_id`, `version`) VALUES (NEW.`workspace_id`, 1) ON CONFLICT (`workspace_id`) DO UPDATE SET `version` = `version` + 1; END;--> statement-breakpoint
CREATE TRIGGER `sessions_updated_bumps_list_version` AFTER UPDATE ON `sessions` BEGIN INSERT INTO `session_list_versions` (`workspace_id`, `version`) VALUES (NEW.`workspace_id`, 1) ON CONFLICT (`workspace_id`) DO UPDATE SET `version` = `version` + 1; END;--> statement-breakpoint
CREATE TRIGGER `sessions_deleted_bumps_list_version` AFTER DELETE ON `sessions` BEGIN INSERT INTO `session_list_versions` (`workspace_id`, `version`) VALUES (OLD.`workspace_id`, 1) ON CONFLICT (`workspace_id`) DO UPDATE SET `version` = `version` + 1; END;
