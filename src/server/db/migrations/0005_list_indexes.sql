-- Hand-written: drizzle-kit does not emit extensions. pg_trgm serves substring search through an index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "users_type_idx";--> statement-breakpoint
DROP INDEX "bought_products_retailer_idx";--> statement-breakpoint
DROP INDEX "bought_products_status_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "search" text GENERATED ALWAYS AS (lower(name || ' ' || user_name || ' ' || coalesce(email, '') || ' ' || coalesce(mobile, ''))) STORED;--> statement-breakpoint
CREATE INDEX "postings_transaction_type_created_idx" ON "postings" USING btree ("transaction_type","created_at","id");--> statement-breakpoint
CREATE INDEX "postings_status_created_idx" ON "postings" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "users_type_created_idx" ON "users" USING btree ("type","created_at","id");--> statement-breakpoint
CREATE INDEX "users_md_created_idx" ON "users" USING btree ("master_distributor_id","type","created_at","id");--> statement-breakpoint
CREATE INDEX "users_distributor_created_idx" ON "users" USING btree ("distributor_id","type","created_at","id");--> statement-breakpoint
CREATE INDEX "users_retailer_created_idx" ON "users" USING btree ("retailer_id","type","created_at","id");--> statement-breakpoint
CREATE INDEX "users_type_name_idx" ON "users" USING btree ("type",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "users_search_idx" ON "users" USING gin ("search" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "bought_products_retailer_idx" ON "bought_products" USING btree ("retailer_id","created_at","id");--> statement-breakpoint
CREATE INDEX "bought_products_status_idx" ON "bought_products" USING btree ("status","created_at","id");