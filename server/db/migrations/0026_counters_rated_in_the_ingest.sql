-- Hand-written: the ingest works out what a batch takes past the allowance in the statement that
-- upserts the counters (docs/decisions.md, "Rated ingest rate"), instead of updating every rated
-- counter a second time. `rated_allowance` is the allowance (in the records' unit; null = unlimited)
-- the last batch was measured against: the upsert's conflict branch reads it from the new row, as it
-- can read nothing else of the batch. `batch_over` is what that batch took past it, returned to the
-- rating (PostgreSQL 15 returns no value from before an update). `charged_amount` goes: a meter's
-- charge is the sum of `usage_overage.amount` of its line, cycle and type, which rating writes anyway.
ALTER TABLE "usage_counters" ADD COLUMN "rated_allowance" bigint;--> statement-breakpoint
ALTER TABLE "usage_counters" ADD COLUMN "batch_over" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_counters" DROP COLUMN "charged_amount";
