DROP TABLE "job_leases" CASCADE;--> statement-breakpoint
ALTER TABLE "import_jobs" DROP COLUMN "updated_at";