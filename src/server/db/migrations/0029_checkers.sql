ALTER TABLE "pending_commands" DROP CONSTRAINT "pending_commands_kind_check";--> statement-breakpoint
ALTER TABLE "pending_commands" DROP CONSTRAINT "pending_commands_amount_check";--> statement-breakpoint
ALTER TABLE "pending_commands" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "pending_commands" ALTER COLUMN "amount_paise" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "pending_commands" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "pending_commands" ADD COLUMN "details" jsonb;--> statement-breakpoint
CREATE INDEX "pending_commands_posting_idx" ON "pending_commands" USING btree ("posting_id") WHERE "pending_commands"."posting_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "pending_commands_power_once" ON "pending_commands" USING btree ("kind","user_id") WHERE "pending_commands"."status" = 'PENDING' and "pending_commands"."kind" in ('ADMIN_PROMOTE', 'ADMIN_PASSWORD_RESET', 'ADMIN_SECOND_STEP_RESET');--> statement-breakpoint
CREATE INDEX "postings_payout_maker_idx" ON "postings" USING btree ("created_by","created_at") WHERE "postings"."kind" = 'PAYOUT';--> statement-breakpoint
ALTER TABLE "pending_commands" ADD CONSTRAINT "pending_commands_user_check" CHECK ("pending_commands"."user_id" is not null or ("pending_commands"."kind" = 'ADMIN_CREATE' and "pending_commands"."status" <> 'APPROVED'));--> statement-breakpoint
ALTER TABLE "pending_commands" ADD CONSTRAINT "pending_commands_kind_check" CHECK ("pending_commands"."kind" in ('PAYOUT', 'ADJUSTMENT', 'ADMIN_CREATE', 'ADMIN_PROMOTE', 'ADMIN_PASSWORD_RESET', 'ADMIN_SECOND_STEP_RESET'));--> statement-breakpoint
ALTER TABLE "pending_commands" ADD CONSTRAINT "pending_commands_amount_check" CHECK (case when "pending_commands"."kind" in ('PAYOUT', 'ADJUSTMENT') then "pending_commands"."amount_paise" is not null and "pending_commands"."amount_paise" <> 0 and ("pending_commands"."kind" <> 'PAYOUT' or "pending_commands"."amount_paise" > 0) else "pending_commands"."amount_paise" is null end);--> statement-breakpoint
-- Approved adjustments already show their reason on the statement (the posting's reference): that was their note.
-- A pending one gets none, so its internal reason never reaches a statement.
UPDATE "pending_commands" SET "note" = "reason" WHERE "kind" = 'ADJUSTMENT' AND "status" = 'APPROVED';
