ALTER TABLE `session` ADD `createdAt` integer;--> statement-breakpoint
ALTER TABLE `session` ADD `userAgent` text;--> statement-breakpoint
CREATE INDEX `session_userId_idx` ON `session` (`userId`);--> statement-breakpoint
CREATE INDEX `account_userId_idx` ON `account` (`userId`);