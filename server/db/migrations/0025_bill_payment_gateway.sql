-- Hand-written: bills everyone can pay (issue 24). Saved bank accounts beside cards (the gateway's
-- token and the last 4 only), partial payments (the bill keeps what was paid of it), ACH payments
-- that are returned after they settled, overpayments kept as a credit the next bill deducts, and the
-- bill's own credit line and last cycle's total.
ALTER TABLE "payment_methods" ADD COLUMN "type" text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD COLUMN "bank_name" text;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD COLUMN "account_holder_type" text;--> statement-breakpoint
ALTER TABLE "payment_methods" ALTER COLUMN "brand" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_methods" ALTER COLUMN "exp_month" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_methods" ALTER COLUMN "exp_year" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_type_valid" CHECK ("payment_methods"."type" in ('card', 'bank_account'));--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_type_fields" CHECK (("payment_methods"."type" = 'card' and "payment_methods"."brand" is not null and "payment_methods"."exp_month" is not null and "payment_methods"."exp_year" is not null) or ("payment_methods"."type" = 'bank_account' and "payment_methods"."bank_name" is not null and "payment_methods"."account_holder_type" in ('individual', 'company')));--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "credit_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "paid_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "previous_total_amount" integer;--> statement-breakpoint
UPDATE "invoices" SET "paid_amount" = "total_amount" WHERE "status" = 'paid';--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_amounts";--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_amounts" CHECK ("invoices"."subtotal_amount" >= 0 and "invoices"."tax_amount" >= 0 and "invoices"."credit_amount" >= 0 and "invoices"."total_amount" = "invoices"."subtotal_amount" + "invoices"."tax_amount" - "invoices"."credit_amount" and "invoices"."total_amount" >= 0);--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_paid_amount" CHECK ("invoices"."paid_amount" between 0 and "invoices"."total_amount");--> statement-breakpoint
DROP INDEX "invoice_payments_one_pending_uq";--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD COLUMN "method_type" text DEFAULT 'card' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD COLUMN "applied_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "invoice_payments" SET "applied_amount" = "amount" WHERE "status" = 'succeeded';--> statement-breakpoint
ALTER TABLE "invoice_payments" DROP CONSTRAINT "invoice_payments_status_valid";--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_status_valid" CHECK ("invoice_payments"."status" in ('created', 'succeeded', 'failed', 'returned'));--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_method_type_valid" CHECK ("invoice_payments"."method_type" in ('card', 'bank_account'));--> statement-breakpoint
ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_applied_amount" CHECK ("invoice_payments"."applied_amount" between 0 and "invoice_payments"."amount");--> statement-breakpoint
CREATE INDEX "invoice_payments_open_idx" ON "invoice_payments" USING btree ("invoice_id") WHERE "invoice_payments"."status" = 'created';--> statement-breakpoint
CREATE TABLE "account_credits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"account_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"reason" text NOT NULL,
	"source_payment_id" uuid,
	"source_invoice_id" uuid,
	"applied_invoice_id" uuid,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_credits_amount_positive" CHECK ("account_credits"."amount" > 0),
	CONSTRAINT "account_credits_currency_iso" CHECK ("account_credits"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "account_credits_used_once" CHECK ("account_credits"."applied_invoice_id" is null or "account_credits"."cancelled_at" is null)
);--> statement-breakpoint
ALTER TABLE "account_credits" ADD CONSTRAINT "account_credits_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_credits" ADD CONSTRAINT "account_credits_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_credits" ADD CONSTRAINT "account_credits_source_payment_id_invoice_payments_id_fk" FOREIGN KEY ("source_payment_id") REFERENCES "public"."invoice_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_credits" ADD CONSTRAINT "account_credits_applied_invoice_id_invoices_id_fk" FOREIGN KEY ("applied_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_credits_source_payment_uq" ON "account_credits" USING btree ("source_payment_id") WHERE "account_credits"."source_payment_id" is not null;--> statement-breakpoint
CREATE INDEX "account_credits_open_idx" ON "account_credits" USING btree ("account_id") WHERE "account_credits"."applied_invoice_id" is null and "account_credits"."cancelled_at" is null;
