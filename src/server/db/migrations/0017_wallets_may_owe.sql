ALTER TABLE "postings" DROP CONSTRAINT "postings_balances_check";--> statement-breakpoint
ALTER TABLE "wallets" DROP CONSTRAINT "wallets_balance_check";--> statement-breakpoint
CREATE INDEX "postings_payout_reference_folded_idx" ON "postings" USING btree (lower(btrim("reference"))) WHERE "postings"."kind" = 'PAYOUT';--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_balances_check" CHECK ("postings"."clearing_balance_after_paise" >= 0 and ("postings"."balance_after_paise" >= 0 or "postings"."kind" <> 'PAYOUT'));