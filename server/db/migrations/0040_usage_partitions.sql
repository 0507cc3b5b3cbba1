-- Hand-written (issue 30): usage_records partitioned by month of started_at (UTC), so that usage can
-- be kept for a configured number of months and dropped a month at a time (server/domain/usage/
-- partitions.ts), and a line's reads of one cycle touch one or two months. The same DDL on PGlite.
-- A partitioned table's unique keys must hold its partition key: a record is now known by its
-- operator, id and start time. A replayed record (same id, same start) is still skipped.
-- usage_records_default catches a record outside every month made so far (far past or future);
-- the daily maintenance moves such rows into their month when it makes it.
ALTER TABLE "usage_records" RENAME TO "usage_records_unpartitioned";--> statement-breakpoint
ALTER TABLE "usage_records_unpartitioned" RENAME CONSTRAINT "usage_records_operator_code_id_pk" TO "usage_records_unpartitioned_pk";--> statement-breakpoint
ALTER TABLE "usage_records_unpartitioned" RENAME CONSTRAINT "usage_records_quantity_nonnegative" TO "usage_records_unpartitioned_quantity_nonnegative";--> statement-breakpoint
ALTER INDEX "usage_records_line_started_idx" RENAME TO "usage_records_unpartitioned_line_started_idx";--> statement-breakpoint
CREATE TABLE "usage_records" (
	"operator_code" text NOT NULL,
	"id" text NOT NULL,
	"line_id" uuid NOT NULL,
	"type" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"quantity" integer NOT NULL,
	"roaming_zone" text,
	"cycle_start" date NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_records_operator_code_id_started_at_pk" PRIMARY KEY("operator_code","id","started_at"),
	CONSTRAINT "usage_records_quantity_nonnegative" CHECK ("usage_records"."quantity" >= 0)
) PARTITION BY RANGE ("started_at");--> statement-breakpoint
CREATE INDEX "usage_records_line_started_idx" ON "usage_records" USING btree ("line_id","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE TABLE "usage_records_default" PARTITION OF "usage_records" DEFAULT;--> statement-breakpoint
DO $$
DECLARE
	month date;
BEGIN
	-- One partition per month, from the oldest record's month (or last month) to three months ahead.
	FOR month IN
		SELECT generate_series(
			date_trunc('month', least(coalesce((SELECT min("started_at") FROM "usage_records_unpartitioned"), now()), now() - interval '1 month') AT TIME ZONE 'UTC'),
			date_trunc('month', now() AT TIME ZONE 'UTC') + interval '3 months',
			interval '1 month'
		)::date
	LOOP
		EXECUTE format(
			'CREATE TABLE %I PARTITION OF "usage_records" FOR VALUES FROM (%L) TO (%L)',
			'usage_records_' || to_char(month, 'YYYY_MM'),
			month::timestamp AT TIME ZONE 'UTC',
			(month + interval '1 month')::timestamp AT TIME ZONE 'UTC'
		);
	END LOOP;
END $$;--> statement-breakpoint
INSERT INTO "usage_records" ("operator_code", "id", "line_id", "type", "started_at", "quantity", "roaming_zone", "cycle_start", "received_at")
	SELECT "operator_code", "id", "line_id", "type", "started_at", "quantity", "roaming_zone", "cycle_start", "received_at" FROM "usage_records_unpartitioned";--> statement-breakpoint
DROP TABLE "usage_records_unpartitioned";
