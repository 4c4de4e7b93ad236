CREATE TABLE "import_errors" (
	"job_id" uuid NOT NULL,
	"row" integer NOT NULL,
	"column" text NOT NULL,
	"message" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"dry_run" boolean NOT NULL,
	"mode" text NOT NULL,
	"status" text DEFAULT 'RUNNING' NOT NULL,
	"actor_id" uuid NOT NULL,
	"content" "bytea" NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"read" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"conflicts" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_jobs_status_check" CHECK ("import_jobs"."status" in ('RUNNING', 'DONE', 'FAILED')),
	CONSTRAINT "import_jobs_mode_check" CHECK ("import_jobs"."mode" in ('create', 'update'))
);
--> statement-breakpoint
ALTER TABLE "import_errors" ADD CONSTRAINT "import_errors_job_id_import_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."import_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_errors_job_idx" ON "import_errors" USING btree ("job_id","row");--> statement-breakpoint
CREATE INDEX "import_jobs_created_idx" ON "import_jobs" USING btree ("created_at","id");