-- Hand-written (issue 30): usage per line, cycle, day (UTC) and type, kept in step with usage_records
-- by the ingest's statement, for the history chart: a cycle's chart reads at most 31 × 3 rows of a
-- line instead of its records, and outlives the raw months that the retention drops.
CREATE TABLE "usage_daily" (
	"line_id" uuid NOT NULL,
	"cycle_start" date NOT NULL,
	"day" date NOT NULL,
	"type" text NOT NULL,
	"quantity" bigint NOT NULL,
	CONSTRAINT "usage_daily_line_id_cycle_start_day_type_pk" PRIMARY KEY("line_id","cycle_start","day","type")
);--> statement-breakpoint
INSERT INTO "usage_daily" ("line_id", "cycle_start", "day", "type", "quantity")
	SELECT "line_id", "cycle_start", ("started_at" AT TIME ZONE 'UTC')::date, "type", sum("quantity")
	FROM "usage_records" GROUP BY 1, 2, 3, 4;
