-- Hand-written: rating usage past the allowance (issue 24, "Rating"). A plan's `overage` says what
-- each usage type costs past the allowance (null = capped), with rates per roaming zone. A line may
-- turn pay-as-you-go off (capped at the allowance). Counters keep what went past the allowance
-- (`over_allowance`: charged or capped, never counted against an allowance again) and what was charged
-- for it this cycle; `usage_overage` keeps the rated quantity and the whole units charged per zone
-- (a unit started in one batch is not charged again in the next); `usage_caps` is a line's barred
-- usage types in one cycle (a new cycle starts uncapped), with why. Neither has a foreign key to
-- lines (as usage_records): the ingest writes them, and a key check would take a share lock on the
-- line that a line action holding it FOR UPDATE (buy-add-on) makes wait while that action waits for
-- the account the ingest holds: a deadlock. Lines are never deleted.
ALTER TABLE "plans" ADD COLUMN "overage" jsonb;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_overage_object" CHECK ("plans"."overage" is null or jsonb_typeof("plans"."overage") = 'object');--> statement-breakpoint
ALTER TABLE "lines" ADD COLUMN "pay_as_you_go" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_counters" ADD COLUMN "over_allowance" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_counters" ADD COLUMN "charged_amount" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_counters" ADD CONSTRAINT "usage_counters_over_allowance_range" CHECK ("usage_counters"."over_allowance" >= 0 and "usage_counters"."over_allowance" <= "usage_counters"."used");--> statement-breakpoint
ALTER TABLE "usage_counters" ADD CONSTRAINT "usage_counters_charged_nonnegative" CHECK ("usage_counters"."charged_amount" >= 0);--> statement-breakpoint
CREATE TABLE "usage_overage" (
	"line_id" uuid NOT NULL,
	"cycle_start" date NOT NULL,
	"type" text NOT NULL,
	"zone" text NOT NULL,
	"quantity" bigint DEFAULT 0 NOT NULL,
	"units" bigint DEFAULT 0 NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_overage_line_id_cycle_start_type_zone_pk" PRIMARY KEY("line_id","cycle_start","type","zone"),
	CONSTRAINT "usage_overage_nonnegative" CHECK ("usage_overage"."quantity" >= 0 and "usage_overage"."units" >= 0 and "usage_overage"."amount" >= 0),
	CONSTRAINT "usage_overage_zone_valid" CHECK ("usage_overage"."zone" in ('home', 'canada_mexico', 'europe', 'rest_of_world'))
);--> statement-breakpoint
CREATE TABLE "usage_caps" (
	"line_id" uuid NOT NULL,
	"cycle_start" date NOT NULL,
	"type" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_caps_line_id_cycle_start_type_pk" PRIMARY KEY("line_id","cycle_start","type"),
	CONSTRAINT "usage_caps_type_valid" CHECK ("usage_caps"."type" in ('data', 'voice', 'sms')),
	CONSTRAINT "usage_caps_reason_valid" CHECK ("usage_caps"."reason" in ('plan', 'balance', 'pay_as_you_go'))
);
