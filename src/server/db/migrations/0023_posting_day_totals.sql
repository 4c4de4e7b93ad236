CREATE TABLE "posting_day_totals" (
	"day" date NOT NULL,
	"user_type" smallint NOT NULL,
	"kind" text NOT NULL,
	"transaction_type" text NOT NULL,
	"status" text NOT NULL,
	"amount_paise" bigint NOT NULL,
	"posting_count" bigint NOT NULL,
	CONSTRAINT "posting_day_totals_day_user_type_kind_transaction_type_status_pk" PRIMARY KEY("day","user_type","kind","transaction_type","status")
);
--> statement-breakpoint
CREATE TABLE "posting_month_totals" (
	"month" date NOT NULL,
	"user_type" smallint NOT NULL,
	"kind" text NOT NULL,
	"transaction_type" text NOT NULL,
	"status" text NOT NULL,
	"amount_paise" bigint NOT NULL,
	"posting_count" bigint NOT NULL,
	CONSTRAINT "posting_month_totals_month_user_type_kind_transaction_type_status_pk" PRIMARY KEY("month","user_type","kind","transaction_type","status")
);
--> statement-breakpoint
CREATE TABLE "wallet_day_totals" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"user_type" smallint NOT NULL,
	"kind" text NOT NULL,
	"transaction_type" text NOT NULL,
	"status" text NOT NULL,
	"amount_paise" bigint NOT NULL,
	"posting_count" bigint NOT NULL,
	CONSTRAINT "wallet_day_totals_user_id_day_user_type_kind_transaction_type_status_pk" PRIMARY KEY("user_id","day","user_type","kind","transaction_type","status")
);
--> statement-breakpoint
ALTER TABLE "wallet_day_totals" ADD CONSTRAINT "wallet_day_totals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- The postings written before the counters: summed once, per day (and month) in the business time zone
-- (Asia/Kolkata, as businessDayOf in modules/ledger counts it).
INSERT INTO "posting_day_totals" ("day", "user_type", "kind", "transaction_type", "status", "amount_paise", "posting_count")
SELECT ("created_at" AT TIME ZONE 'Asia/Kolkata')::date, "user_type", "kind", "transaction_type", "status", sum("amount_paise"), count(*)
FROM "postings" GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO "posting_month_totals" ("month", "user_type", "kind", "transaction_type", "status", "amount_paise", "posting_count")
SELECT date_trunc('month', "day")::date, "user_type", "kind", "transaction_type", "status", sum("amount_paise"), sum("posting_count")
FROM "posting_day_totals" GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO "wallet_day_totals" ("user_id", "day", "user_type", "kind", "transaction_type", "status", "amount_paise", "posting_count")
SELECT "user_id", ("created_at" AT TIME ZONE 'Asia/Kolkata')::date, "user_type", "kind", "transaction_type", "status", sum("amount_paise"), count(*)
FROM "postings" GROUP BY 1, 2, 3, 4, 5, 6;
