-- Hand-written: shared data plans and per-line caps (issue 28 item 5). A plan with `sharing` 'pool'
-- gives one data allowance (its `data_mb`) to every line of an account on it; its price is per line.
-- `usage_pools` counts what the account's lines drew from that allowance in one cycle (one row per
-- account and cycle start; the ingest upserts it under its row lock, so two batches of two lines of
-- one family draw one after the other). `lines.data_cap_mb` is the owner's monthly data cap of one
-- line (null: none); a reached cap bars that line's data for the cycle (`usage_caps` reason
-- 'line_cap'), a used-up pool bars every line of it (reason 'pool'). No foreign keys from the usage
-- tables, as in 0023.
ALTER TABLE "plans" ADD COLUMN "sharing" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_sharing_valid" CHECK ("plans"."sharing" in ('none', 'pool'));--> statement-breakpoint
ALTER TABLE "lines" ADD COLUMN "data_cap_mb" integer;--> statement-breakpoint
ALTER TABLE "lines" ADD CONSTRAINT "lines_data_cap_nonnegative" CHECK ("lines"."data_cap_mb" is null or "lines"."data_cap_mb" >= 0);--> statement-breakpoint
CREATE TABLE "usage_pools" (
	"account_id" uuid NOT NULL,
	"cycle_start" date NOT NULL,
	"used" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_pools_account_id_cycle_start_pk" PRIMARY KEY("account_id","cycle_start"),
	CONSTRAINT "usage_pools_used_nonnegative" CHECK ("usage_pools"."used" >= 0)
);--> statement-breakpoint
ALTER TABLE "usage_caps" DROP CONSTRAINT "usage_caps_reason_valid";--> statement-breakpoint
ALTER TABLE "usage_caps" ADD CONSTRAINT "usage_caps_reason_valid" CHECK ("usage_caps"."reason" in ('plan', 'balance', 'pay_as_you_go', 'pool', 'line_cap'));
