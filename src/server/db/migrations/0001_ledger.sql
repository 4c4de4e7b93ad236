CREATE TABLE "account_openings" (
	"utm_code" text PRIMARY KEY NOT NULL,
	"merchant_code" text NOT NULL,
	"account_type" text NOT NULL,
	"product_id" uuid,
	"customer_id" uuid,
	"requested_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bought_products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"retailer_id" uuid,
	"product_id" uuid NOT NULL,
	"sold_by" uuid NOT NULL,
	"utm_code" text NOT NULL,
	"merchant_code" text NOT NULL,
	"account_type" text,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"path" text NOT NULL,
	"amount_paise" bigint NOT NULL,
	"admin_commission" integer NOT NULL,
	"master_distributor_commission" integer NOT NULL,
	"distributor_commission" integer NOT NULL,
	"retailer_commission" integer NOT NULL,
	"customer_commission" integer NOT NULL,
	"admin_share" bigint NOT NULL,
	"master_distributor_share" bigint NOT NULL,
	"distributor_share" bigint NOT NULL,
	"retailer_share" bigint NOT NULL,
	"customer_share" bigint NOT NULL,
	"admin_user_id" uuid NOT NULL,
	"master_distributor_user_id" uuid NOT NULL,
	"distributor_user_id" uuid NOT NULL,
	"retailer_user_id" uuid NOT NULL,
	"customer_user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"reversed_at" timestamp with time zone,
	CONSTRAINT "bought_products_status_check" CHECK ("bought_products"."status" in ('PENDING', 'CONFIRMED', 'FAILED', 'REVERSED')),
	CONSTRAINT "bought_products_amount_check" CHECK ("bought_products"."amount_paise" > 0),
	CONSTRAINT "bought_products_split_check" CHECK ("bought_products"."admin_share" + "bought_products"."master_distributor_share" + "bought_products"."distributor_share" + "bought_products"."retailer_share" + "bought_products"."customer_share" = "bought_products"."amount_paise")
);
--> statement-breakpoint
CREATE TABLE "job_leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_run_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "postings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"user_type" smallint NOT NULL,
	"bought_product_id" uuid,
	"tier" text,
	"kind" text NOT NULL,
	"transaction_type" text NOT NULL,
	"balance_type" text NOT NULL,
	"status" text NOT NULL,
	"amount_paise" bigint NOT NULL,
	"balance_after_paise" bigint NOT NULL,
	"clearing_balance_after_paise" bigint NOT NULL,
	"ref_posting_id" uuid,
	"reference" text,
	"created_by" uuid,
	"wallet_seq" bigint NOT NULL,
	"seal" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "postings_amount_check" CHECK ("postings"."amount_paise" > 0),
	CONSTRAINT "postings_balances_check" CHECK ("postings"."balance_after_paise" >= 0 and "postings"."clearing_balance_after_paise" >= 0),
	CONSTRAINT "postings_kind_check" CHECK ("postings"."kind" in ('COMMISSION', 'SETTLEMENT', 'REVERSAL', 'PAYOUT')),
	CONSTRAINT "postings_type_check" CHECK ("postings"."transaction_type" in ('CREDIT', 'DEBIT')),
	CONSTRAINT "postings_balance_type_check" CHECK ("postings"."balance_type" in ('CLEARING', 'AVAILABLE')),
	CONSTRAINT "postings_status_check" CHECK ("postings"."status" in ('CLEARING', 'SETTLED', 'REVERSED', 'PAID'))
);
--> statement-breakpoint
CREATE TABLE "provider_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"event" text NOT NULL,
	"utm_code" text NOT NULL,
	"bought_product_id" uuid,
	"answer" jsonb,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_accounts" (
	"utm_code" text PRIMARY KEY NOT NULL,
	"merchant_code" text NOT NULL,
	"account_type" text NOT NULL,
	"product_id" uuid,
	"customer_id" uuid,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"callback_status" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"balance_paise" bigint DEFAULT 0 NOT NULL,
	"clearing_balance_paise" bigint DEFAULT 0 NOT NULL,
	"posting_count" bigint DEFAULT 0 NOT NULL,
	"chain_head" text,
	CONSTRAINT "wallets_balance_check" CHECK ("wallets"."balance_paise" >= 0),
	CONSTRAINT "wallets_clearing_check" CHECK ("wallets"."clearing_balance_paise" >= 0)
);
--> statement-breakpoint
ALTER TABLE "account_openings" ADD CONSTRAINT "account_openings_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_openings" ADD CONSTRAINT "account_openings_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_openings" ADD CONSTRAINT "account_openings_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bought_products" ADD CONSTRAINT "bought_products_customer_id_users_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bought_products" ADD CONSTRAINT "bought_products_retailer_id_users_id_fk" FOREIGN KEY ("retailer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bought_products" ADD CONSTRAINT "bought_products_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bought_products" ADD CONSTRAINT "bought_products_sold_by_users_id_fk" FOREIGN KEY ("sold_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bought_products" ADD CONSTRAINT "bought_products_admin_user_id_users_id_fk" FOREIGN KEY ("admin_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bought_products" ADD CONSTRAINT "bought_products_master_distributor_user_id_users_id_fk" FOREIGN KEY ("master_distributor_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bought_products" ADD CONSTRAINT "bought_products_distributor_user_id_users_id_fk" FOREIGN KEY ("distributor_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bought_products" ADD CONSTRAINT "bought_products_retailer_user_id_users_id_fk" FOREIGN KEY ("retailer_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bought_products" ADD CONSTRAINT "bought_products_customer_user_id_users_id_fk" FOREIGN KEY ("customer_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_bought_product_id_bought_products_id_fk" FOREIGN KEY ("bought_product_id") REFERENCES "public"."bought_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_events" ADD CONSTRAINT "provider_events_bought_product_id_bought_products_id_fk" FOREIGN KEY ("bought_product_id") REFERENCES "public"."bought_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bought_products_utm_key" ON "bought_products" USING btree ("utm_code");--> statement-breakpoint
CREATE INDEX "bought_products_created_idx" ON "bought_products" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "bought_products_retailer_idx" ON "bought_products" USING btree ("retailer_id","created_at");--> statement-breakpoint
CREATE INDEX "bought_products_customer_idx" ON "bought_products" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "bought_products_status_idx" ON "bought_products" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "postings_wallet_seq_key" ON "postings" USING btree ("user_id","wallet_seq");--> statement-breakpoint
CREATE INDEX "postings_created_idx" ON "postings" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "postings_user_created_idx" ON "postings" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "postings_type_created_idx" ON "postings" USING btree ("user_type","created_at","id");--> statement-breakpoint
CREATE INDEX "postings_sale_idx" ON "postings" USING btree ("bought_product_id");--> statement-breakpoint
CREATE INDEX "postings_ref_idx" ON "postings" USING btree ("ref_posting_id");--> statement-breakpoint
CREATE UNIQUE INDEX "postings_commission_once" ON "postings" USING btree ("bought_product_id","tier") WHERE "postings"."kind" = 'COMMISSION';--> statement-breakpoint
CREATE UNIQUE INDEX "postings_settled_once" ON "postings" USING btree ("ref_posting_id","balance_type") WHERE "postings"."kind" = 'SETTLEMENT';--> statement-breakpoint
CREATE UNIQUE INDEX "postings_reversed_once" ON "postings" USING btree ("ref_posting_id") WHERE "postings"."kind" = 'REVERSAL';--> statement-breakpoint
CREATE UNIQUE INDEX "postings_payout_reference_key" ON "postings" USING btree ("reference") WHERE "postings"."kind" = 'PAYOUT';--> statement-breakpoint
-- Every existing user gets its wallet (nothing could change the old wallet columns, so they start at 0).
INSERT INTO "wallets" ("user_id") SELECT "id" FROM "users";--> statement-breakpoint
-- Postings are immutable: corrections are new postings, never an UPDATE or DELETE.
CREATE FUNCTION "postings_are_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'postings are immutable: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "postings_no_update" BEFORE UPDATE OR DELETE ON "postings"
  FOR EACH ROW EXECUTE FUNCTION "postings_are_immutable"();--> statement-breakpoint
CREATE TRIGGER "postings_no_truncate" BEFORE TRUNCATE ON "postings"
  FOR EACH STATEMENT EXECUTE FUNCTION "postings_are_immutable"();--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "balance_paise";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "clearing_balance_paise";