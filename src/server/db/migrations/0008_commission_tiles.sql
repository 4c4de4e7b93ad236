DROP INDEX "users_path_idx";--> statement-breakpoint
CREATE INDEX "postings_commission_created_idx" ON "postings" USING btree ("created_at","user_id","amount_paise") WHERE "postings"."kind" = 'COMMISSION';--> statement-breakpoint
CREATE INDEX "users_path_idx" ON "users" USING btree ("path" text_pattern_ops,"id");