-- The dashboard's money tiles from rows kept per network (schema.ts: networkCommissionDays, networkClearing), written
-- by the ledger's posting statement, instead of every member's rows summed on each call. They replace each user's
-- commissions per month (0011) and the index of commission postings by date (0008), which only the tiles read.
CREATE TABLE "network_clearing" (
	"scope_id" uuid PRIMARY KEY NOT NULL,
	"clearing_paise" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "network_commission_days" (
	"scope_id" uuid NOT NULL,
	"day" date NOT NULL,
	"amount_paise" bigint NOT NULL,
	CONSTRAINT "network_commission_days_scope_id_day_pk" PRIMARY KEY("scope_id","day")
);
--> statement-breakpoint
DROP TABLE "commission_months" CASCADE;--> statement-breakpoint
DROP INDEX "postings_commission_created_idx";--> statement-breakpoint
-- The rows so far, from the postings and the wallets: the same sums as NETWORK_COMMISSION_DAYS and NETWORK_CLEARING
-- in modules/ledger/ledger.ts (the whole network, 00000000-0000-0000-0000-000000000000, and every user
-- outside staff on a user's path; the day is the calendar day in Asia/Kolkata, the business time zone).
INSERT INTO "network_commission_days" ("scope_id", "day", "amount_paise")
SELECT s.scope_id, (p."created_at" at time zone 'Asia/Kolkata')::date, sum(p."amount_paise")
FROM "postings" p JOIN "users" u ON u."id" = p."user_id"
CROSS JOIN LATERAL (
  SELECT '00000000-0000-0000-0000-000000000000'::uuid
  UNION ALL
  SELECT unnest(CASE WHEN u."type" IN (0, 5) THEN '{}'::uuid[] ELSE string_to_array(trim(both '/' from u."path"), '/')::uuid[] END)
) AS s(scope_id)
WHERE p."kind" = 'COMMISSION' GROUP BY 1, 2;--> statement-breakpoint
INSERT INTO "network_clearing" ("scope_id", "clearing_paise")
SELECT s.scope_id, sum(w."clearing_balance_paise")
FROM "wallets" w JOIN "users" u ON u."id" = w."user_id"
CROSS JOIN LATERAL unnest(string_to_array(trim(both '/' from u."path"), '/')::uuid[]) AS s(scope_id)
WHERE u."type" NOT IN (0, 5) GROUP BY 1 HAVING sum(w."clearing_balance_paise") <> 0;
