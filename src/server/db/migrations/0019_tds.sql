-- Issue 43, TDS under section 194H: tax withheld at settlement is a posting (kind TDS) from the deductee's wallet
-- to TDS payable, the company's own account (ledger_accounts), whose entries (tds_entries) are the other side of
-- every TDS posting and each challan deposit. Both immutable.
CREATE TABLE "ledger_accounts" (
	"name" text PRIMARY KEY NOT NULL,
	"balance_paise" bigint DEFAULT 0 NOT NULL,
	"entry_count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO "ledger_accounts" ("name") VALUES ('TDS_PAYABLE');--> statement-breakpoint
CREATE TABLE "tds_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"posting_id" uuid,
	"user_id" uuid,
	"commission_id" uuid,
	"amount_paise" bigint NOT NULL,
	"credited_paise" bigint,
	"rate_basis_points" integer,
	"pan_id" text,
	"bsr_code" text,
	"challan_serial" text,
	"deposited_on" date,
	"created_by" uuid,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tds_entries_kind_check" CHECK ("tds_entries"."kind" in ('WITHHELD', 'RETURNED', 'DEPOSIT')),
	CONSTRAINT "tds_entries_amount_check" CHECK ("tds_entries"."amount_paise" > 0),
	CONSTRAINT "tds_entries_shape_check" CHECK (("tds_entries"."kind" = 'DEPOSIT') = ("tds_entries"."posting_id" is null) and ("tds_entries"."kind" = 'DEPOSIT') = ("tds_entries"."bsr_code" is not null))
);
--> statement-breakpoint
ALTER TABLE "tds_entries" ADD CONSTRAINT "tds_entries_posting_id_postings_id_fk" FOREIGN KEY ("posting_id") REFERENCES "public"."postings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tds_entries" ADD CONSTRAINT "tds_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tds_entries" ADD CONSTRAINT "tds_entries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tds_entries_posting_key" ON "tds_entries" USING btree ("posting_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tds_entries_challan_key" ON "tds_entries" USING btree ("bsr_code","challan_serial","deposited_on") WHERE "tds_entries"."kind" = 'DEPOSIT';--> statement-breakpoint
CREATE INDEX "tds_entries_user_created_idx" ON "tds_entries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "tds_entries_created_idx" ON "tds_entries" USING btree ("created_at");--> statement-breakpoint
CREATE TRIGGER "tds_entries_no_update" BEFORE UPDATE OR DELETE ON "tds_entries"
  FOR EACH ROW EXECUTE FUNCTION "postings_are_immutable"();--> statement-breakpoint
CREATE TRIGGER "tds_entries_no_truncate" BEFORE TRUNCATE ON "tds_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "postings_are_immutable"();--> statement-breakpoint
CREATE UNIQUE INDEX "postings_tds_once" ON "postings" USING btree ("ref_posting_id","transaction_type") WHERE "postings"."kind" = 'TDS';--> statement-breakpoint
ALTER TABLE "postings" DROP CONSTRAINT "postings_kind_check";--> statement-breakpoint
ALTER TABLE "postings" DROP CONSTRAINT "postings_status_check";--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_kind_check" CHECK ("postings"."kind" in ('COMMISSION', 'SETTLEMENT', 'REVERSAL', 'PAYOUT', 'TDS'));--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_status_check" CHECK ("postings"."status" in ('CLEARING', 'SETTLED', 'REVERSED', 'PAID', 'WITHHELD'));
