-- The sandbox partner's openings keep the customer's name Tierdesk's signed call sent, and a hash of the secret key
-- its link carries. Openings made before have neither: their page refuses every visitor.
ALTER TABLE "sandbox_accounts" ADD COLUMN "customer_name" text;--> statement-breakpoint
ALTER TABLE "sandbox_accounts" ADD COLUMN "key_hash" text;