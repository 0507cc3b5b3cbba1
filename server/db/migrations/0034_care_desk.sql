-- Hand-written (issue 27 item 6, the care desk). The one staff search:
-- * finds a name that sounds like the one typed when trigrams cannot ("Smaht" shares two of six with
--   "Smith"): the Soundex code of each word of every distinct name (fuzzystrmatch, loaded by PGlite
--   in client.ts like pg_trgm), GIN-indexed so "every word of the query sounds like a word of the
--   name" is an index lookup (`name_sounds(name) @> name_sounds(query)`);
-- * finds a SIM by the last digits of its ICCID (`iccid LIKE '%digits'`, a trigram index like the numbers');
-- and the 360 lists every account of one person (the holder, or the account itself while no one holds it).
-- soundex is named with its schema: PostgreSQL 17 (PGlite) builds and maintains indexes with a
-- search_path of pg_catalog only.
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch SCHEMA public;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION name_sounds(name text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT coalesce(array_agg(DISTINCT public.soundex(w)) FILTER (WHERE public.soundex(w) <> ''), '{}') FROM regexp_split_to_table(name, '[^[:alpha:]]+') AS w $$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "subscriber_names_sounds_idx" ON "subscriber_names" USING gin (name_sounds("name"));
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "lines_iccid_trgm_idx" ON "lines" USING gin ("iccid" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "accounts_person_idx" ON "accounts" USING btree ("operator_code", coalesce("owner_uid", "id"::text));
