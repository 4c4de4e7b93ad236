CREATE TABLE "events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"kind" text NOT NULL,
	"body" jsonb NOT NULL,
	"to_network" text,
	"to_staff" text DEFAULT 'NONE' NOT NULL,
	"to_user" uuid,
	"to_session" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_to_staff_check" CHECK ("events"."to_staff" in ('ALL', 'ADMINS', 'NONE'))
);
--> statement-breakpoint
CREATE INDEX "events_position_idx" ON "events" USING btree ("xid","id");--> statement-breakpoint
CREATE INDEX "events_created_idx" ON "events" USING btree ("created_at");