CREATE TABLE `sessionCutoff` (
	`userId` text PRIMARY KEY NOT NULL,
	`validAfter` integer NOT NULL
);
