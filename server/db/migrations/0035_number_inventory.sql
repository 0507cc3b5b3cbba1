-- Hand-written (issue 28 items 1, 2 and 4: numbers, new lines, changing and ending lines).
-- * number_inventory: the operator's numbers. A number is free, reserved (for 15 minutes, for the
--   person who picked it), assigned (to a line) or quarantined (90 days after a cancellation or a
--   change of number). An expired reservation or quarantine is as good as free: no job needs to run.
-- * lines.activated_at / terminated_at: billing starts at activation (never for a pending line) and a
--   cancelled line's last cycle is still billed.
-- * lines.iccid may be empty: a physical SIM in the post has none until it is activated.
-- * A terminated line's number and SIM are released: uniqueness holds only among lines not terminated.
CREATE TABLE IF NOT EXISTS "number_inventory" (
	"operator_code" text NOT NULL REFERENCES "operators"("code"),
	"msisdn" text NOT NULL,
	"area_code" text NOT NULL,
	"status" text DEFAULT 'free' NOT NULL,
	"reserved_by" text,
	"reserved_until" timestamp with time zone,
	"quarantined_until" timestamp with time zone,
	"line_id" uuid REFERENCES "lines"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "number_inventory_pk" PRIMARY KEY ("operator_code", "msisdn"),
	CONSTRAINT "number_inventory_status_valid" CHECK ("status" in ('free', 'reserved', 'assigned', 'quarantined'))
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "number_inventory_area_idx" ON "number_inventory" USING btree ("operator_code", "area_code", "status");
--> statement-breakpoint
ALTER TABLE "lines" ADD COLUMN IF NOT EXISTS "activated_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "lines" ADD COLUMN IF NOT EXISTS "terminated_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "lines" ALTER COLUMN "iccid" DROP NOT NULL;
--> statement-breakpoint
DROP INDEX IF EXISTS "lines_operator_msisdn_uq";
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "lines_operator_msisdn_uq" ON "lines" USING btree ("operator_code", "msisdn") WHERE "status" <> 'terminated';
--> statement-breakpoint
DROP INDEX IF EXISTS "lines_iccid_uq";
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "lines_iccid_uq" ON "lines" USING btree ("iccid") WHERE "status" <> 'terminated';
--> statement-breakpoint
-- Two order types for the new actions: a change of number, and a line's cancellation (now or scheduled).
ALTER TABLE "orders" DROP CONSTRAINT IF EXISTS "orders_type_valid";
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_type_valid" CHECK ("orders"."type" in ('change_plan', 'add_on', 'suspend', 'restore', 'sim_swap', 'esim_transfer', 'port_in', 'new_line', 'change_number', 'terminate'));
