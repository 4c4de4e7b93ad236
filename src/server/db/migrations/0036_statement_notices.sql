CREATE TABLE "statement_notices" (
	"month" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Hand-written: the month that ended last (India's calendar) when the database is made or upgraded counts as
-- announced, so the first run sends nothing for months that ended before notices existed.
INSERT INTO "statement_notices" ("month")
VALUES (to_char(date_trunc('month', now() at time zone 'Asia/Kolkata') - interval '1 month', 'YYYY-MM'));
