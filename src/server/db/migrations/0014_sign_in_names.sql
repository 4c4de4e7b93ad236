CREATE TABLE "sign_in_name_clashes" (
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"held_by" uuid NOT NULL,
	CONSTRAINT "sign_in_name_clashes_user_id_name_pk" PRIMARY KEY("user_id","name")
);
--> statement-breakpoint
CREATE TABLE "sign_in_names" (
	"name" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sign_in_name_clashes" ADD CONSTRAINT "sign_in_name_clashes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_in_name_clashes" ADD CONSTRAINT "sign_in_name_clashes_held_by_users_id_fk" FOREIGN KEY ("held_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_in_names" ADD CONSTRAINT "sign_in_names_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sign_in_names_user_idx" ON "sign_in_names" USING btree ("user_id");--> statement-breakpoint
-- Hand-written: every user's sign-in names as they stand. A name two users hold (one's user name is the other's
-- mobile number) stays with the older user (then the lower id); the newer user keeps its data, and the clash is
-- listed in sign_in_name_clashes, which the server names in a warning at every start (account/sign-in-names.ts).
CREATE VIEW "users_sign_in_names" AS
  SELECT lower("user_name") AS "name", "id" AS "user_id", "created_at", 0 AS "kind" FROM "users"
  UNION ALL
  SELECT "mobile", "id", "created_at", 1 FROM "users"
    WHERE "mobile" IS NOT NULL AND "mobile" <> lower("user_name");--> statement-breakpoint
INSERT INTO "sign_in_names" ("name", "user_id")
  SELECT DISTINCT ON ("name") "name", "user_id" FROM "users_sign_in_names"
  ORDER BY "name", "created_at", "user_id", "kind";--> statement-breakpoint
INSERT INTO "sign_in_name_clashes" ("user_id", "name", "held_by")
  SELECT n."user_id", n."name", s."user_id" FROM "users_sign_in_names" n
  JOIN "sign_in_names" s ON s."name" = n."name" AND s."user_id" <> n."user_id"
  ON CONFLICT DO NOTHING;--> statement-breakpoint
DROP VIEW "users_sign_in_names";--> statement-breakpoint
-- Hand-written: the names are kept in the same transaction as every write of a user, whichever code writes it.
-- A name another user holds is refused as a unique violation naming what clashed (sign_in_names_user_name: this
-- user name is another user's mobile; sign_in_names_mobile: this mobile is another user's user name), which the
-- server answers as a 409 with its message. ON CONFLICT waits for a concurrent save of the same name: if that one
-- commits, this one is refused.
CREATE FUNCTION "keep_sign_in_names"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  user_name_key text := lower(NEW."user_name");
  added integer;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM "sign_in_names" WHERE "user_id" = NEW."id";
  END IF;
  INSERT INTO "sign_in_names" ("name", "user_id") VALUES (user_name_key, NEW."id") ON CONFLICT DO NOTHING;
  GET DIAGNOSTICS added = ROW_COUNT;
  IF added = 0 THEN
    RAISE EXCEPTION 'the user name is another user''s sign-in name'
      USING ERRCODE = 'unique_violation', CONSTRAINT = 'sign_in_names_user_name', TABLE = 'sign_in_names';
  END IF;
  IF NEW."mobile" IS NOT NULL AND NEW."mobile" <> user_name_key THEN
    INSERT INTO "sign_in_names" ("name", "user_id") VALUES (NEW."mobile", NEW."id") ON CONFLICT DO NOTHING;
    GET DIAGNOSTICS added = ROW_COUNT;
    IF added = 0 THEN
      RAISE EXCEPTION 'the mobile number is another user''s sign-in name'
        USING ERRCODE = 'unique_violation', CONSTRAINT = 'sign_in_names_mobile', TABLE = 'sign_in_names';
    END IF;
  END IF;
  -- Its names are its own now: a clash listed at migration is resolved.
  DELETE FROM "sign_in_name_clashes" WHERE "user_id" = NEW."id";
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "users_sign_in_names_insert" AFTER INSERT ON "users"
  FOR EACH ROW EXECUTE FUNCTION "keep_sign_in_names"();--> statement-breakpoint
CREATE TRIGGER "users_sign_in_names_update" AFTER UPDATE OF "user_name", "mobile" ON "users"
  FOR EACH ROW WHEN (OLD."user_name" IS DISTINCT FROM NEW."user_name" OR OLD."mobile" IS DISTINCT FROM NEW."mobile")
  EXECUTE FUNCTION "keep_sign_in_names"();
