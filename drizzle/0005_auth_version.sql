CREATE TABLE `auth_version` (
	`id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `auth_version` (`id`, `version`) VALUES (1, 0);--> statement-breakpoint
CREATE TRIGGER `api_keys_revoked_bumps_auth_version` AFTER UPDATE OF `revoked_at`, `hash`, `workspace_id` ON `api_keys` BEGIN UPDATE `auth_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `api_keys_deleted_bumps_auth_version` AFTER DELETE ON `api_keys` BEGIN UPDATE `auth_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `workspaces_changed_bumps_auth_version` AFTER UPDATE ON `workspaces` BEGIN UPDATE `auth_version` SET `version` = `version` + 1 WHERE `id` = 1; END;--> statement-breakpoint
CREATE TRIGGER `workspaces_deleted_bumps_auth_version` AFTER DELETE ON `workspaces` BEGIN UPDATE `auth_version` SET `version` = `version` + 1 WHERE `id` = 1; END;
