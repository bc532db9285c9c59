CREATE TABLE `twoFactor` (
	`userId` text PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`enabledAt` integer,
	`lastStep` integer,
	`backupCodes` text DEFAULT ',' NOT NULL,
	`devicesValidAfter` integer,
	`createdAt` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `session` ADD `factors` text;