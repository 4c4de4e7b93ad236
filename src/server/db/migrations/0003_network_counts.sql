CREATE TABLE "network_counts" (
	"scope_id" uuid NOT NULL,
	"type" smallint NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"active" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "network_counts_scope_id_type_pk" PRIMARY KEY("scope_id","type")
);
--> statement-breakpoint
-- Hand-written: counts of the users already there (modules/account/counts.ts RECOUNT_SQL).
INSERT INTO "network_counts" ("scope_id", "type", "total", "active")
SELECT s.scope_id, u.type, count(*), count(*) FILTER (WHERE u.status = 'ACTIVE')
FROM "users" u
CROSS JOIN LATERAL (
  SELECT '00000000-0000-0000-0000-000000000000'::uuid AS scope_id
  UNION ALL
  SELECT p::uuid FROM unnest(string_to_array(trim(both '/' from u.path), '/')) AS p
) s
GROUP BY s.scope_id, u.type;
