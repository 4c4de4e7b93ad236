-- Hand-written: the old counters are keyed by typed name only; they expire within 15 minutes anyway.
DELETE FROM "login_failures";--> statement-breakpoint
ALTER TABLE "lead_attempts" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "lead_attempts" CASCADE;--> statement-breakpoint
DROP INDEX "login_failures_user_idx";--> statement-breakpoint
ALTER TABLE "login_failures" ADD COLUMN "account" text NOT NULL;--> statement-breakpoint
ALTER TABLE "login_failures" ADD COLUMN "ip" text NOT NULL;--> statement-breakpoint
CREATE INDEX "login_failures_account_idx" ON "login_failures" USING btree ("account","failed_at");--> statement-breakpoint
CREATE INDEX "login_failures_failed_idx" ON "login_failures" USING btree ("failed_at");--> statement-breakpoint
ALTER TABLE "login_failures" DROP COLUMN "user_name";