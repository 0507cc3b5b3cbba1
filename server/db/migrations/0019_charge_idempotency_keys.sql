ALTER TABLE "invoice_payments" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "top_ups" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_payments_idempotency_key_uq" ON "invoice_payments" USING btree ("invoice_id","created_by","idempotency_key") WHERE "invoice_payments"."idempotency_key" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "top_ups_idempotency_key_uq" ON "top_ups" USING btree ("account_id","created_by","idempotency_key") WHERE "top_ups"."idempotency_key" is not null;