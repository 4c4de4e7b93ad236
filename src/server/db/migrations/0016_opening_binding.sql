CREATE TABLE "idempotency_keys" (
	"caller_id" uuid NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"status_code" integer,
	"answer" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_caller_id_key_pk" PRIMARY KEY("caller_id","key")
);
--> statement-breakpoint
ALTER TABLE "account_openings" ADD COLUMN "amount_paise" bigint;--> statement-breakpoint
ALTER TABLE "account_openings" ADD COLUMN "admin_commission" integer;--> statement-breakpoint
ALTER TABLE "account_openings" ADD COLUMN "master_distributor_commission" integer;--> statement-breakpoint
ALTER TABLE "account_openings" ADD COLUMN "distributor_commission" integer;--> statement-breakpoint
ALTER TABLE "account_openings" ADD COLUMN "retailer_commission" integer;--> statement-breakpoint
ALTER TABLE "account_openings" ADD COLUMN "customer_commission" integer;--> statement-breakpoint
ALTER TABLE "account_openings" ADD COLUMN "url" text;--> statement-breakpoint
ALTER TABLE "provider_events" ADD COLUMN "merchant_code" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_caller_id_users_id_fk" FOREIGN KEY ("caller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Openings recorded before the binding. One sold as the product it named (or naming none) is bound to what its
-- sale froze (its product, amount and percentages); any other that named a product is bound to that product as it
-- is now, so a sale recorded as another product shows in reconcile ("sale-opening"). An opening that named no
-- product and was never sold stays unbound: no sale can be recorded for it.
UPDATE "account_openings" o SET "product_id" = s."product_id", "amount_paise" = s."amount_paise",
  "admin_commission" = s."admin_commission", "master_distributor_commission" = s."master_distributor_commission",
  "distributor_commission" = s."distributor_commission", "retailer_commission" = s."retailer_commission",
  "customer_commission" = s."customer_commission"
  FROM "bought_products" s
  WHERE s."utm_code" = o."utm_code" AND (o."product_id" IS NULL OR o."product_id" = s."product_id");--> statement-breakpoint
UPDATE "account_openings" o SET "amount_paise" = p."amount_paise",
  "admin_commission" = p."admin_commission", "master_distributor_commission" = p."master_distributor_commission",
  "distributor_commission" = p."distributor_commission", "retailer_commission" = p."retailer_commission",
  "customer_commission" = p."customer_commission"
  FROM "products" p WHERE p."id" = o."product_id" AND o."amount_paise" IS NULL;--> statement-breakpoint
ALTER TABLE "account_openings" ADD CONSTRAINT "account_openings_split_check" CHECK ("account_openings"."product_id" is null or coalesce("account_openings"."amount_paise" > 0 and "account_openings"."admin_commission" + "account_openings"."master_distributor_commission" + "account_openings"."distributor_commission" + "account_openings"."retailer_commission" + "account_openings"."customer_commission" = 10000, false));