CREATE TABLE "twoFactor" (
	"userId" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"enabledAt" timestamp,
	"lastStep" bigint,
	"backupCodes" text DEFAULT ',' NOT NULL,
	"devicesValidAfter" timestamp,
	"createdAt" timestamp NOT NULL
);
--> statement-breakpoint
ALTER TABLE "session" ADD COLUMN "factors" text;