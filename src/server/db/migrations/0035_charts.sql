CREATE TABLE "retailer_commission_months" (
	"retailer_id" uuid NOT NULL,
	"month" date NOT NULL,
	"master_distributor_id" uuid,
	"distributor_id" uuid,
	"amount_paise" bigint NOT NULL,
	CONSTRAINT "retailer_commission_months_retailer_id_month_pk" PRIMARY KEY("retailer_id","month")
);
--> statement-breakpoint
CREATE TABLE "sale_days" (
	"scope_id" uuid NOT NULL,
	"day" date NOT NULL,
	"product_id" uuid NOT NULL,
	"sales" integer NOT NULL,
	"confirmed" integer NOT NULL,
	"failed" integer NOT NULL,
	CONSTRAINT "sale_days_scope_id_day_product_id_pk" PRIMARY KEY("scope_id","day","product_id")
);
--> statement-breakpoint
CREATE INDEX "retailer_months_top_idx" ON "retailer_commission_months" USING btree ("month","amount_paise","retailer_id");--> statement-breakpoint
CREATE INDEX "retailer_months_md_top_idx" ON "retailer_commission_months" USING btree ("master_distributor_id","month","amount_paise","retailer_id");--> statement-breakpoint
CREATE INDEX "retailer_months_distributor_top_idx" ON "retailer_commission_months" USING btree ("distributor_id","month","amount_paise","retailer_id");--> statement-breakpoint
-- The sales and postings written before this migration, counted as the writes count them from now on
-- (sales/counters.ts, rebuildSaleDays; ledger.ts, RETAILER_COMMISSION_MONTHS).
INSERT INTO "sale_days" ("scope_id", "day", "product_id", "sales", "confirmed", "failed")
SELECT s.scope_id, (b.created_at AT TIME ZONE 'Asia/Kolkata')::date, b.product_id, count(*),
  count(*) FILTER (WHERE b.status = 'CONFIRMED'), count(*) FILTER (WHERE b.status = 'FAILED')
FROM "bought_products" b
CROSS JOIN LATERAL (SELECT ids FROM string_to_array(trim(both '/' from b.path), '/') AS a(ids)) AS p
CROSS JOIN LATERAL (SELECT '00000000-0000-0000-0000-000000000000'::uuid
  UNION ALL SELECT unnest(p.ids[1:cardinality(p.ids) - 1])::uuid) AS s(scope_id)
GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "retailer_commission_months" ("retailer_id", "month", "master_distributor_id", "distributor_id", "amount_paise")
SELECT p.user_id, date_trunc('month', (p.created_at AT TIME ZONE 'Asia/Kolkata')::date)::date, u.master_distributor_id,
  u.distributor_id, sum(p.amount_paise)
FROM "postings" p JOIN "users" u ON u.id = p.user_id
WHERE p.kind = 'COMMISSION' AND p.user_type = 4
GROUP BY 1, 2, 3, 4;
