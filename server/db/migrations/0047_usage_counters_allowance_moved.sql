-- Hand-written (issue 30): whether a counter's allowance changed at its last batch (a plan change, an
-- add-on bought or run out). The usage alerts offer a threshold again only then; otherwise only the
-- thresholds a batch crosses. Offering every threshold each counter had passed, every batch, cost up
-- to 130 ms of a 10,000-record batch. True for the counters already there: their next batch offers
-- everything once, as before.
ALTER TABLE "usage_counters" ADD COLUMN IF NOT EXISTS "allowance_moved" boolean DEFAULT true NOT NULL;
