CREATE TABLE `rateLimit` (
	`key` text PRIMARY KEY NOT NULL,
	`count` integer NOT NULL,
	`resetAt` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rateLimit_resetAt_idx` ON `rateLimit` (`resetAt`);