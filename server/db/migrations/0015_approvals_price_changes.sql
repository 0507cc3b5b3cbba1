CREATE TABLE "approvals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"kind" text NOT NULL,
	"account_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"reason" text NOT NULL,
	"requested_by" text NOT NULL,
	"requested_by_role" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"decision_reason" text,
	"ledger_entry_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approvals_amount_positive" CHECK ("approvals"."amount" > 0),
	CONSTRAINT "approvals_kind_valid" CHECK ("approvals"."kind" in ('adjustment', 'refund', 'charge')),
	CONSTRAINT "approvals_status_valid" CHECK ("approvals"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "approvals_decider_not_requester" CHECK ("approvals"."decided_by" is null or "approvals"."decided_by" <> "approvals"."requested_by"),
	CONSTRAINT "approvals_decided_when_not_pending" CHECK (("approvals"."status" = 'pending') = ("approvals"."decided_by" is null)),
	CONSTRAINT "approvals_entry_only_when_approved" CHECK ("approvals"."ledger_entry_id" is null or "approvals"."status" = 'approved')
);
--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "pending_price_amount" integer;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "price_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_ledger_entry_id_ledger_entries_id_fk" FOREIGN KEY ("ledger_entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approvals_operator_status_created_idx" ON "approvals" USING btree ("operator_code","status","created_at");--> statement-breakpoint
CREATE INDEX "approvals_requested_by_idx" ON "approvals" USING btree ("requested_by","created_at");--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_pending_price_nonnegative" CHECK ("plans"."pending_price_amount" is null or "plans"."pending_price_amount" >= 0);--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_pending_price_pair" CHECK (("plans"."pending_price_amount" is null) = ("plans"."price_changed_at" is null));--> statement-breakpoint
-- hand-written: a decided approval is final (no second decision, no second ledger entry), and none is deleted.
CREATE FUNCTION "approvals_decided_is_final"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN
		RAISE EXCEPTION 'approvals are kept: DELETE is not allowed' USING ERRCODE = 'integrity_constraint_violation';
	END IF;
	IF OLD.status <> 'pending' THEN
		RAISE EXCEPTION 'approval % was already %', OLD.id, OLD.status USING ERRCODE = 'integrity_constraint_violation';
	END IF;
	RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "approvals_decided_is_final" BEFORE UPDATE OR DELETE ON "approvals" FOR EACH ROW EXECUTE FUNCTION "approvals_decided_is_final"();
