CREATE TABLE "payment_methods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"owner_uid" text NOT NULL,
	"gateway" text NOT NULL,
	"gateway_method_id" text NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_methods_last4" CHECK ("payment_methods"."last4" ~ '^[0-9]{4}$'),
	CONSTRAINT "payment_methods_exp_month" CHECK ("payment_methods"."exp_month" between 1 and 12),
	CONSTRAINT "payment_methods_brand_valid" CHECK ("payment_methods"."brand" in ('visa', 'mastercard', 'amex', 'discover', 'unknown'))
);
--> statement-breakpoint
CREATE TABLE "payment_webhook_events" (
	"gateway" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_webhook_events_gateway_event_id_pk" PRIMARY KEY("gateway","event_id")
);
--> statement-breakpoint
CREATE TABLE "top_ups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"account_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"refund" text DEFAULT 'none' NOT NULL,
	"gateway" text NOT NULL,
	"payment_method_id" uuid,
	"gateway_charge_id" text,
	"gateway_captured" boolean DEFAULT false NOT NULL,
	"failure_reason" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "top_ups_amount_positive" CHECK ("top_ups"."amount" > 0),
	CONSTRAINT "top_ups_status_valid" CHECK ("top_ups"."status" in ('created', 'completed', 'failed', 'cancelled')),
	CONSTRAINT "top_ups_refund_valid" CHECK ("top_ups"."refund" in ('none', 'claimed', 'approved')),
	CONSTRAINT "top_ups_refund_only_captured" CHECK ("top_ups"."refund" = 'none' or ("top_ups"."gateway_captured" and "top_ups"."status" in ('failed', 'cancelled')))
);
--> statement-breakpoint
ALTER TABLE "payment_methods" ADD CONSTRAINT "payment_methods_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "top_ups" ADD CONSTRAINT "top_ups_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "top_ups" ADD CONSTRAINT "top_ups_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "top_ups" ADD CONSTRAINT "top_ups_payment_method_id_payment_methods_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_methods"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_methods_owner_idx" ON "payment_methods" USING btree ("operator_code","owner_uid");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_one_default_uq" ON "payment_methods" USING btree ("operator_code","owner_uid") WHERE "payment_methods"."is_default";--> statement-breakpoint
CREATE INDEX "top_ups_account_idx" ON "top_ups" USING btree ("account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "top_ups_operator_idx" ON "top_ups" USING btree ("operator_code","created_at" DESC NULLS LAST);