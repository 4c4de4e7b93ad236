CREATE TABLE "reconcile_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ran_at" timestamp with time zone NOT NULL,
	"ok" boolean NOT NULL,
	"report" jsonb NOT NULL,
	"ran_by" uuid,
	"source" text NOT NULL,
	CONSTRAINT "reconcile_runs_source_check" CHECK ("reconcile_runs"."source" in ('HTTP', 'CLI'))
);
--> statement-breakpoint
ALTER TABLE "reconcile_runs" ADD CONSTRAINT "reconcile_runs_ran_by_users_id_fk" FOREIGN KEY ("ran_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reconcile_runs_ran_at_idx" ON "reconcile_runs" USING btree ("ran_at","id");