ALTER TABLE `authenticator` ADD `name` text;--> statement-breakpoint
ALTER TABLE `authenticator` ADD `aaguid` text;--> statement-breakpoint
ALTER TABLE `authenticator` ADD `createdAt` integer;--> statement-breakpoint
ALTER TABLE `authenticator` ADD `lastUsedAt` integer;--> statement-breakpoint
CREATE INDEX `authenticator_userId_idx` ON `authenticator` (`userId`);