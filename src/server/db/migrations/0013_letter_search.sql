-- The function is hand-written: drizzle-kit does not emit functions. Every 3 to 12 consecutive letters (a to z) of a
-- user's search column (name, user name, email, mobile), from each run of letters in it: a search of n letters
-- (3 <= n <= 12) matches `search LIKE '%text%'` exactly when it is one of these, since letters found in the
-- column lie within one run of letters (as search_digit_grams does for digits, migration 0009). The trigram index
-- gives candidates that are all read and tested again; this index gives the matches.
CREATE FUNCTION "search_letter_grams"(search text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  grams text[] := '{}';
  run text;
  n int;
  i int;
BEGIN
  FOR run IN SELECT m[1] FROM regexp_matches(search, '[a-z]{3,}', 'g') AS m LOOP
    FOR n IN 3 .. least(length(run), 12) LOOP
      FOR i IN 1 .. length(run) - n + 1 LOOP
        grams := grams || substr(run, i, n);
      END LOOP;
    END LOOP;
  END LOOP;
  RETURN grams;
END $$;--> statement-breakpoint
CREATE INDEX "users_type_letters_idx" ON "users" USING gin ("type",search_letter_grams("search"));
