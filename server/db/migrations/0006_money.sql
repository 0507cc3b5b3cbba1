CREATE TABLE "invoice_charges" (
	"ledger_entry_id" uuid PRIMARY KEY NOT NULL,
	"invoice_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"account_id" uuid NOT NULL,
	"number" text NOT NULL,
	"period_start" text NOT NULL,
	"period_end" text NOT NULL,
	"currency" text NOT NULL,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"subtotal_amount" integer NOT NULL,
	"tax_amount" integer NOT NULL,
	"total_amount" integer NOT NULL,
	"tax_rate_bps" integer NOT NULL,
	"status" text DEFAULT 'issued' NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"due_on" text NOT NULL,
	"paid_at" timestamp with time zone,
	"void_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_amounts" CHECK ("invoices"."subtotal_amount" >= 0 and "invoices"."tax_amount" >= 0 and "invoices"."total_amount" = "invoices"."subtotal_amount" + "invoices"."tax_amount"),
	CONSTRAINT "invoices_currency_iso" CHECK ("invoices"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "invoices_status_valid" CHECK ("invoices"."status" in ('issued', 'paid', 'overdue', 'void')),
	CONSTRAINT "invoices_void_has_reason" CHECK (("invoices"."status" = 'void') = ("invoices"."void_reason" is not null)),
	CONSTRAINT "invoices_paid_has_time" CHECK (("invoices"."status" = 'paid') = ("invoices"."paid_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"balance_after" integer,
	"reason" text NOT NULL,
	"actor_uid" text,
	"actor_role" text NOT NULL,
	"idempotency_key" text,
	"reference_type" text,
	"reference_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_amount_positive" CHECK ("ledger_entries"."amount" > 0),
	CONSTRAINT "ledger_entries_currency_iso" CHECK ("ledger_entries"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "ledger_entries_kind_valid" CHECK ("ledger_entries"."kind" in ('top_up', 'charge', 'adjustment', 'refund', 'reversal')),
	CONSTRAINT "ledger_entries_reference_pair" CHECK (("ledger_entries"."reference_type" is null) = ("ledger_entries"."reference_id" is null))
);
--> statement-breakpoint
CREATE TABLE "voucher_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"count" integer NOT NULL,
	"value_amount" integer NOT NULL,
	"currency" text NOT NULL,
	"expires_on" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "voucher_batches_count_range" CHECK ("voucher_batches"."count" between 1 and 1000),
	CONSTRAINT "voucher_batches_value_positive" CHECK ("voucher_batches"."value_amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "vouchers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"batch_id" uuid NOT NULL,
	"operator_code" text NOT NULL,
	"code_hash" text NOT NULL,
	"status" text DEFAULT 'unused' NOT NULL,
	"redeemed_at" timestamp with time zone,
	"redeemed_account_id" uuid,
	CONSTRAINT "vouchers_status_valid" CHECK ("vouchers"."status" in ('unused', 'redeemed')),
	CONSTRAINT "vouchers_redeemed_complete" CHECK (("vouchers"."status" = 'redeemed') = ("vouchers"."redeemed_at" is not null and "vouchers"."redeemed_account_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "balance_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_charges" ADD CONSTRAINT "invoice_charges_ledger_entry_id_ledger_entries_id_fk" FOREIGN KEY ("ledger_entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_charges" ADD CONSTRAINT "invoice_charges_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_batches" ADD CONSTRAINT "voucher_batches_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_batch_id_voucher_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."voucher_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_redeemed_account_id_accounts_id_fk" FOREIGN KEY ("redeemed_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_charges_invoice_idx" ON "invoice_charges" USING btree ("invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_account_period_uq" ON "invoices" USING btree ("account_id","period_start");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_operator_number_uq" ON "invoices" USING btree ("operator_code","number");--> statement-breakpoint
CREATE INDEX "invoices_status_due_idx" ON "invoices" USING btree ("status","due_on");--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" USING btree ("account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ledger_entries_operator_idx" ON "ledger_entries" USING btree ("operator_code","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_idempotency_uq" ON "ledger_entries" USING btree ("account_id","idempotency_key") WHERE "ledger_entries"."idempotency_key" is not null;--> statement-breakpoint
CREATE INDEX "voucher_batches_operator_idx" ON "voucher_batches" USING btree ("operator_code","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "vouchers_code_hash_uq" ON "vouchers" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "vouchers_batch_idx" ON "vouchers" USING btree ("batch_id");--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_balance_nonnegative" CHECK ("accounts"."balance_amount" >= 0);--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_balance_prepaid_only" CHECK ("accounts"."type" = 'prepaid' or "accounts"."balance_amount" = 0);--> statement-breakpoint
-- Hand-written: the ledger is append-only. UPDATE, DELETE and TRUNCATE raise, for every role.
CREATE FUNCTION "money_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_no_update_delete" BEFORE UPDATE OR DELETE ON "ledger_entries" FOR EACH ROW EXECUTE FUNCTION "money_append_only"();
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_no_truncate" BEFORE TRUNCATE ON "ledger_entries" FOR EACH STATEMENT EXECUTE FUNCTION "money_append_only"();
--> statement-breakpoint
CREATE TRIGGER "invoice_charges_no_update_delete" BEFORE UPDATE OR DELETE ON "invoice_charges" FOR EACH ROW EXECUTE FUNCTION "money_append_only"();
--> statement-breakpoint
-- Hand-written: an entry moves the prepaid balance in its own INSERT (balance = sum of entries by
-- construction) and records the balance after it; the account's CHECK refuses a negative balance.
-- The entry must be of the account's operator and in its currency.
CREATE FUNCTION "ledger_entries_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	account_type text;
	account_currency text;
	new_balance integer;
BEGIN
	SELECT a."type", o."currency" INTO account_type, account_currency
		FROM "accounts" a JOIN "operators" o ON o."code" = a."operator_code"
		WHERE a."id" = NEW."account_id" AND a."operator_code" = NEW."operator_code";
	IF account_type IS NULL THEN
		RAISE EXCEPTION 'ledger entry for account % not of operator %', NEW."account_id", NEW."operator_code" USING ERRCODE = 'foreign_key_violation';
	END IF;
	IF NEW."currency" <> account_currency THEN
		RAISE EXCEPTION 'ledger entry in % on an account kept in %', NEW."currency", account_currency USING ERRCODE = 'check_violation';
	END IF;
	IF account_type = 'prepaid' THEN
		PERFORM set_config('money.ledger_apply', 'on', true);
		UPDATE "accounts"
			SET "balance_amount" = "balance_amount" + (CASE WHEN NEW."kind" IN ('charge', 'reversal') THEN -NEW."amount" ELSE NEW."amount" END)
			WHERE "id" = NEW."account_id"
			RETURNING "balance_amount" INTO new_balance;
		PERFORM set_config('money.ledger_apply', 'off', true);
		NEW."balance_after" := new_balance;
	ELSE
		NEW."balance_after" := NULL;
	END IF;
	RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_apply" BEFORE INSERT ON "ledger_entries" FOR EACH ROW EXECUTE FUNCTION "ledger_entries_apply"();
--> statement-breakpoint
-- Hand-written: only a ledger entry moves a balance; any other UPDATE of it raises.
CREATE FUNCTION "accounts_balance_from_ledger_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW."balance_amount" IS DISTINCT FROM OLD."balance_amount" AND current_setting('money.ledger_apply', true) IS DISTINCT FROM 'on' THEN
		RAISE EXCEPTION 'accounts.balance_amount changes only through ledger_entries' USING ERRCODE = 'integrity_constraint_violation';
	END IF;
	RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "accounts_balance_from_ledger_only" BEFORE UPDATE ON "accounts" FOR EACH ROW EXECUTE FUNCTION "accounts_balance_from_ledger_only"();
