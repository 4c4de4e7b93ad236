-- Import files move from import_jobs.content into the file store (stored_files, 256 KB a chunk), each under its
-- job's id without hyphens (32 hex digits, as the store names files).
ALTER TABLE "import_jobs" ADD COLUMN "file_id" text;--> statement-breakpoint
INSERT INTO "stored_files" ("id", "content_type", "size", "created_at")
	SELECT replace("id"::text, '-', ''), 'text/csv', length("content"), "created_at" FROM "import_jobs";--> statement-breakpoint
INSERT INTO "stored_file_chunks" ("file_id", "seq", "bytes")
	SELECT replace(j."id"::text, '-', ''), c.seq, substring(j."content" from c.seq * 262144 + 1 for 262144)
	FROM "import_jobs" j CROSS JOIN LATERAL generate_series(0, (length(j."content") - 1) / 262144) AS c (seq)
	WHERE length(j."content") > 0;--> statement-breakpoint
UPDATE "import_jobs" SET "file_id" = replace("id"::text, '-', '');--> statement-breakpoint
ALTER TABLE "import_jobs" ALTER COLUMN "file_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_jobs" DROP COLUMN "content";--> statement-breakpoint
-- Row errors: every one counted on the job, the first 1,000 of each job kept (in row order, then as found).
ALTER TABLE "import_errors" ADD COLUMN "id" bigint PRIMARY KEY NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "import_errors_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "import_jobs" ADD COLUMN "errors_found" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "import_jobs" j SET "errors_found" = e.n
	FROM (SELECT "job_id", count(*)::integer AS n FROM "import_errors" GROUP BY "job_id") e WHERE e."job_id" = j."id";--> statement-breakpoint
DELETE FROM "import_errors" e
	USING (SELECT "id", row_number() OVER (PARTITION BY "job_id" ORDER BY "row", "id") AS n FROM "import_errors") r
	WHERE r."id" = e."id" AND r.n > 1000;--> statement-breakpoint
-- One running import per person. Of a person's RUNNING jobs (their servers killed, all but perhaps the newest),
-- only the newest stays RUNNING; the others end as the stopped-job rule already answered them.
UPDATE "import_jobs" j SET "status" = 'FAILED',
	"message" = 'The import stopped: the server running it stopped before the end. Send the same file again to complete it.'
	FROM (SELECT "id", row_number() OVER (PARTITION BY "actor_id" ORDER BY "updated_at" DESC, "id") AS n
		FROM "import_jobs" WHERE "status" = 'RUNNING') r
	WHERE r."id" = j."id" AND r.n > 1;--> statement-breakpoint
CREATE UNIQUE INDEX "import_jobs_running_actor_key" ON "import_jobs" USING btree ("actor_id") WHERE "import_jobs"."status" = 'RUNNING';
