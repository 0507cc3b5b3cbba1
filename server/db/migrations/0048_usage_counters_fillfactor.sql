-- Hand-written (issue 30, item 5): every ingest batch updates a counter row per line and type, and a
-- daily-sum row per line, type and day. In full pages each update writes its new row version on
-- another page and a new entry in the primary key. With half of each page left free the update stays
-- on its page (a heap-only update: no index entry; the old version is pruned on the next visit). On a
-- 10,000-record batch over 1,000 lines the counters' upsert went from 17-25 to ~9.5 ms and the daily
-- sums' from 15-22 to ~7.7 ms (docs/decisions.md, "Counters updated in place"). A partitioned table
-- takes no storage parameter: each month of usage_daily gets it (partitions.ts makes new months so).
ALTER TABLE "usage_counters" SET (fillfactor = 50);
--> statement-breakpoint
DO $$
DECLARE
  part regclass;
BEGIN
  FOR part IN SELECT inhrelid::regclass FROM pg_inherits WHERE inhparent = 'usage_daily'::regclass LOOP
    EXECUTE format('ALTER TABLE %s SET (fillfactor = 50)', part);
  END LOOP;
END $$;
