CREATE TABLE "stored_file_chunks" (
	"file_id" text NOT NULL,
	"seq" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "stored_file_chunks_file_id_seq_pk" PRIMARY KEY("file_id","seq")
);
--> statement-breakpoint
-- Out of line and uncompressed: pictures and documents are compressed formats already.
ALTER TABLE "stored_file_chunks" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"id" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_files_size_check" CHECK ("stored_files"."size" >= 0)
);
--> statement-breakpoint
ALTER TABLE "stored_file_chunks" ADD CONSTRAINT "stored_file_chunks_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- NOT VALID: applications received before this migration name files still in DATA_DIR/uploads, brought in
-- at start (modules/leads/files.ts); every application written from now on is checked.
ALTER TABLE "leads" ADD CONSTRAINT "leads_picture_file_stored_files_id_fk" FOREIGN KEY ("picture_file") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action NOT VALID;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_document_file_stored_files_id_fk" FOREIGN KEY ("document_file") REFERENCES "public"."stored_files"("id") ON DELETE no action ON UPDATE no action NOT VALID;
