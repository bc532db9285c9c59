CREATE TABLE `password` (
	`userId` text PRIMARY KEY NOT NULL,
	`hash` text NOT NULL,
	`updatedAt` integer NOT NULL,
	FOREIGN KEY (`userId`) REFERENCES `user`(`id`) ON UPDATE no action ON DELETE cascade
);
