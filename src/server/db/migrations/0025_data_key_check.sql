CREATE TABLE "data_key_check" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_key_check_one_row" CHECK ("data_key_check"."one")
);
