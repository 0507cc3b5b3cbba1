-- Hand-written (issue 30): usage_daily partitioned by month of its cycle (cycle_start), as usage_records
-- is by month of started_at (0040): the chart reads one cycle of a line, so one partition answers it,
-- and the daily sums older than their retention (USAGE_DAILY_RETENTION_MONTHS) go a month at a time
-- (server/domain/usage/partitions.ts). The same DDL on PGlite. usage_daily_default catches a cycle
-- outside every month made so far; the daily maintenance moves such rows into their month.
ALTER TABLE "usage_daily" RENAME TO "usage_daily_unpartitioned";--> statement-breakpoint
ALTER TABLE "usage_daily_unpartitioned" RENAME CONSTRAINT "usage_daily_line_id_cycle_start_day_type_pk" TO "usage_daily_unpartitioned_pk";--> statement-breakpoint
CREATE TABLE "usage_daily" (
	"line_id" uuid NOT NULL,
	"cycle_start" date NOT NULL,
	"day" date NOT NULL,
	"type" text NOT NULL,
	"quantity" bigint NOT NULL,
	CONSTRAINT "usage_daily_line_id_cycle_start_day_type_pk" PRIMARY KEY("line_id","cycle_start","day","type")
) PARTITION BY RANGE ("cycle_start");--> statement-breakpoint
CREATE TABLE "usage_daily_default" PARTITION OF "usage_daily" DEFAULT;--> statement-breakpoint
DO $$
DECLARE
	month date;
BEGIN
	-- One partition per month, from the oldest cycle's month (or last month) to three months ahead.
	FOR month IN
		SELECT generate_series(
			date_trunc('month', least(coalesce((SELECT min("cycle_start") FROM "usage_daily_unpartitioned"), current_date), current_date - interval '1 month')),
			date_trunc('month', now() AT TIME ZONE 'UTC') + interval '3 months',
			interval '1 month'
		)::date
	LOOP
		EXECUTE format(
			'CREATE TABLE %I PARTITION OF "usage_daily" FOR VALUES FROM (%L) TO (%L)',
			'usage_daily_' || to_char(month, 'YYYY_MM'),
			month,
			(month + interval '1 month')::date
		);
	END LOOP;
END $$;--> statement-breakpoint
INSERT INTO "usage_daily" ("line_id", "cycle_start", "day", "type", "quantity")
	SELECT "line_id", "cycle_start", "day", "type", "quantity" FROM "usage_daily_unpartitioned";--> statement-breakpoint
DROP TABLE "usage_daily_unpartitioned";
