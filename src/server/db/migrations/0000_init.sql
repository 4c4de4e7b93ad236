CREATE TABLE "districts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"state_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ip" text NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lead_type" text NOT NULL,
	"status" text DEFAULT 'NEW' NOT NULL,
	"applicant_name" text NOT NULL,
	"establishment_name" text NOT NULL,
	"mobile" text NOT NULL,
	"state_id" uuid NOT NULL,
	"district_id" uuid NOT NULL,
	"tehsil_id" uuid NOT NULL,
	"sections" jsonb NOT NULL,
	"aadhar_cipher" text NOT NULL,
	"aadhar_hash" text NOT NULL,
	"aadhar_last4" text NOT NULL,
	"identity_number_cipher" text,
	"picture_file" text NOT NULL,
	"picture_mime" text NOT NULL,
	"picture_size" integer NOT NULL,
	"document_file" text NOT NULL,
	"document_mime" text NOT NULL,
	"document_size" integer NOT NULL,
	"document_name" text NOT NULL,
	"user_id" uuid,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"reject_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "leads_type_check" CHECK ("leads"."lead_type" in ('RETAILER', 'DISTRIBUTOR')),
	CONSTRAINT "leads_status_check" CHECK ("leads"."status" in ('NEW', 'APPROVED', 'REJECTED'))
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_name" text NOT NULL,
	"failed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider_id" uuid NOT NULL,
	"name" text NOT NULL,
	"amount_paise" bigint NOT NULL,
	"admin_commission" integer NOT NULL,
	"master_distributor_commission" integer NOT NULL,
	"distributor_commission" integer NOT NULL,
	"retailer_commission" integer NOT NULL,
	"customer_commission" integer NOT NULL,
	"url" text NOT NULL,
	"req_type" text DEFAULT 'GET' NOT NULL,
	"url_data" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_amount_check" CHECK ("products"."amount_paise" > 0),
	CONSTRAINT "products_commission_total_check" CHECK ("products"."admin_commission" + "products"."master_distributor_commission" + "products"."distributor_commission" + "products"."retailer_commission" + "products"."customer_commission" = 10000)
);
--> statement-breakpoint
CREATE TABLE "providers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "states" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tehsils" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"district_id" uuid NOT NULL,
	"state_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" smallint NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"mobile" text,
	"user_name" text NOT NULL,
	"password_hash" text NOT NULL,
	"password_updated_at" timestamp with time zone,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"district_id" uuid,
	"tehsil_id" uuid,
	"path" text NOT NULL,
	"master_distributor_id" uuid,
	"distributor_id" uuid,
	"retailer_id" uuid,
	"is_master" boolean,
	"distributor_code" text,
	"master_distributor_commission" text,
	"aadhar_cipher" text,
	"aadhar_hash" text,
	"aadhar_last4" text,
	"pan_id" text,
	"balance_paise" bigint DEFAULT 0 NOT NULL,
	"clearing_balance_paise" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_type_check" CHECK ("users"."type" between 0 and 5),
	CONSTRAINT "users_status_check" CHECK ("users"."status" in ('ACTIVE', 'INACTIVE'))
);
--> statement-breakpoint
ALTER TABLE "districts" ADD CONSTRAINT "districts_state_id_states_id_fk" FOREIGN KEY ("state_id") REFERENCES "public"."states"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_state_id_states_id_fk" FOREIGN KEY ("state_id") REFERENCES "public"."states"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_tehsil_id_tehsils_id_fk" FOREIGN KEY ("tehsil_id") REFERENCES "public"."tehsils"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tehsils" ADD CONSTRAINT "tehsils_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tehsils" ADD CONSTRAINT "tehsils_state_id_states_id_fk" FOREIGN KEY ("state_id") REFERENCES "public"."states"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_district_id_districts_id_fk" FOREIGN KEY ("district_id") REFERENCES "public"."districts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_tehsil_id_tehsils_id_fk" FOREIGN KEY ("tehsil_id") REFERENCES "public"."tehsils"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "districts_state_idx" ON "districts" USING btree ("state_id");--> statement-breakpoint
CREATE UNIQUE INDEX "districts_state_name_key" ON "districts" USING btree ("state_id",lower("name"));--> statement-breakpoint
CREATE INDEX "lead_attempts_ip_idx" ON "lead_attempts" USING btree ("ip","attempted_at");--> statement-breakpoint
CREATE INDEX "leads_created_idx" ON "leads" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "leads_status_idx" ON "leads" USING btree ("status","lead_type");--> statement-breakpoint
CREATE INDEX "login_failures_user_idx" ON "login_failures" USING btree ("user_name","failed_at");--> statement-breakpoint
CREATE INDEX "products_provider_idx" ON "products" USING btree ("provider_id");--> statement-breakpoint
CREATE UNIQUE INDEX "products_provider_name_key" ON "products" USING btree ("provider_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "providers_name_key" ON "providers" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "states_name_key" ON "states" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "states_created_idx" ON "states" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "tehsils_district_idx" ON "tehsils" USING btree ("district_id");--> statement-breakpoint
CREATE INDEX "tehsils_state_idx" ON "tehsils" USING btree ("state_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tehsils_district_name_key" ON "tehsils" USING btree ("district_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_user_name_key" ON "users" USING btree (lower("user_name"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_mobile_key" ON "users" USING btree ("mobile");--> statement-breakpoint
CREATE INDEX "users_aadhar_hash_idx" ON "users" USING btree ("aadhar_hash");--> statement-breakpoint
CREATE INDEX "users_type_idx" ON "users" USING btree ("type","created_at");--> statement-breakpoint
CREATE INDEX "users_path_idx" ON "users" USING btree ("path" text_pattern_ops);