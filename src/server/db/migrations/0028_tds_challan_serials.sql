-- Issue 51: a challan's serial is the same whatever its leading zeros (`1` is `00001`), so one challan cannot be
-- recorded twice under two spellings. New deposits store it in five digits; the key compares serials padded, as
-- entries recorded before kept what was typed and are never changed.
DROP INDEX "tds_entries_challan_key";--> statement-breakpoint
CREATE INDEX "tds_entries_withheld_commission_idx" ON "tds_entries" USING btree ("commission_id") WHERE "tds_entries"."kind" = 'WITHHELD';--> statement-breakpoint
-- Hand-written: a challan already recorded twice (`00001`, then `1`) keeps both entries; the later ones are left out
-- of the key by id, so it holds for every other deposit and every new one. drizzle-kit's own statement was:
-- CREATE UNIQUE INDEX "tds_entries_challan_key" ON "tds_entries" USING btree ("bsr_code",lpad("challan_serial", 5, '0'),"deposited_on") WHERE "tds_entries"."kind" = 'DEPOSIT';
DO $$
DECLARE
  recorded_again uuid[];
BEGIN
  SELECT coalesce(array_agg(id ORDER BY id), '{}') INTO recorded_again
  FROM (
    SELECT id, row_number() OVER (
      PARTITION BY bsr_code, lpad(challan_serial, 5, '0'), deposited_on ORDER BY created_at, id) AS nth
    FROM tds_entries
    WHERE kind = 'DEPOSIT'
  ) deposits
  WHERE nth > 1;
  EXECUTE 'CREATE UNIQUE INDEX "tds_entries_challan_key" ON "tds_entries" USING btree '
    || '("bsr_code",lpad("challan_serial", 5, ''0''),"deposited_on") WHERE "tds_entries"."kind" = ''DEPOSIT'''
    || CASE WHEN cardinality(recorded_again) = 0 THEN ''
       ELSE format(' AND "tds_entries"."id" <> ALL (%L::uuid[])', recorded_again) END;
  IF cardinality(recorded_again) > 0 THEN
    RAISE WARNING 'tds_entries: % challan deposit(s) recorded again under another spelling of the serial: %',
      cardinality(recorded_again), recorded_again;
  END IF;
END
$$;
