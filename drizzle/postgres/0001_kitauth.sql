CREATE TABLE "rateLimit" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"resetAt" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessionCutoff" (
	"userId" text PRIMARY KEY NOT NULL,
	"validAfter" timestamp NOT NULL
);
--> statement-breakpoint
ALTER TABLE "authenticator" ALTER COLUMN "counter" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "authenticator" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "authenticator" ADD COLUMN "aaguid" text;--> statement-breakpoint
ALTER TABLE "authenticator" ADD COLUMN "createdAt" timestamp;--> statement-breakpoint
ALTER TABLE "authenticator" ADD COLUMN "lastUsedAt" timestamp;--> statement-breakpoint
ALTER TABLE "session" ADD COLUMN "createdAt" timestamp;--> statement-breakpoint
ALTER TABLE "session" ADD COLUMN "userAgent" text;--> statement-breakpoint
CREATE INDEX "rateLimit_resetAt_idx" ON "rateLimit" USING btree ("resetAt");--> statement-breakpoint
CREATE INDEX "account_userId_idx" ON "account" USING btree ("userId");--> statement-breakpoint
CREATE INDEX "authenticator_userId_idx" ON "authenticator" USING btree ("userId");--> statement-breakpoint
CREATE INDEX "session_userId_idx" ON "session" USING btree ("userId");