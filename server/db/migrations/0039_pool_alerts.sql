-- Hand-written: usage alerts of shared pools and of lines' own limits (issue 28). On a pool plan the
-- 80 % and 100 % data alerts compare the account's pooled use with the pool's allowance, once per
-- account, cycle and threshold (`usage_pool_alerts`); a line that reaches the monthly limit its owner
-- set tells the line's member (or the holder) once per line and cycle (`usage_cap_alerts`), however
-- often the limit is raised and reached again. No foreign keys from the usage tables, as in 0023.
CREATE TABLE "usage_pool_alerts" (
	"account_id" uuid NOT NULL,
	"cycle_start" date NOT NULL,
	"threshold" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_pool_alerts_account_id_cycle_start_threshold_pk" PRIMARY KEY("account_id","cycle_start","threshold"),
	CONSTRAINT "usage_pool_alerts_threshold" CHECK ("usage_pool_alerts"."threshold" in (80, 100))
);--> statement-breakpoint
CREATE TABLE "usage_cap_alerts" (
	"line_id" uuid NOT NULL,
	"cycle_start" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_cap_alerts_line_id_cycle_start_pk" PRIMARY KEY("line_id","cycle_start")
);
