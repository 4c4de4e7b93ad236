CREATE TABLE "pending_commands" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid NOT NULL,
	"amount_paise" bigint NOT NULL,
	"reference" text,
	"reason" text,
	"status" text NOT NULL,
	"maker_id" uuid NOT NULL,
	"checker_id" uuid,
	"rejection_reason" text,
	"posting_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "pending_commands_kind_check" CHECK ("pending_commands"."kind" in ('PAYOUT', 'ADJUSTMENT')),
	CONSTRAINT "pending_commands_status_check" CHECK ("pending_commands"."status" in ('PENDING', 'APPROVED', 'REJECTED')),
	CONSTRAINT "pending_commands_amount_check" CHECK ("pending_commands"."amount_paise" <> 0 and ("pending_commands"."kind" <> 'PAYOUT' or "pending_commands"."amount_paise" > 0))
);--> statement-breakpoint
ALTER TABLE "postings" DROP CONSTRAINT "postings_kind_check";--> statement-breakpoint
ALTER TABLE "postings" DROP CONSTRAINT "postings_status_check";--> statement-breakpoint
ALTER TABLE "pending_commands" ADD CONSTRAINT "pending_commands_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_commands" ADD CONSTRAINT "pending_commands_maker_id_users_id_fk" FOREIGN KEY ("maker_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_commands" ADD CONSTRAINT "pending_commands_checker_id_users_id_fk" FOREIGN KEY ("checker_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_commands" ADD CONSTRAINT "pending_commands_posting_id_postings_id_fk" FOREIGN KEY ("posting_id") REFERENCES "public"."postings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pending_commands_status_created_idx" ON "pending_commands" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "pending_commands_maker_idx" ON "pending_commands" USING btree ("maker_id","created_at","id");--> statement-breakpoint
CREATE INDEX "pending_commands_reference_folded_idx" ON "pending_commands" USING btree (lower(btrim("reference"))) WHERE "pending_commands"."kind" = 'PAYOUT';--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_kind_check" CHECK ("postings"."kind" in ('COMMISSION', 'SETTLEMENT', 'REVERSAL', 'PAYOUT', 'TDS', 'ADJUSTMENT'));--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_status_check" CHECK ("postings"."status" in ('CLEARING', 'SETTLED', 'REVERSED', 'PAID', 'WITHHELD', 'ADJUSTED'));
