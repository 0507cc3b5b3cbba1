CREATE TABLE "add_on_purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"line_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"add_on_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"data_mb" integer NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"auto_renew" boolean NOT NULL,
	"renewals" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "add_on_purchases_status_valid" CHECK ("add_on_purchases"."status" in ('active', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "add_ons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"roaming_zone" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"price_amount" integer NOT NULL,
	"currency" text NOT NULL,
	"data_mb" integer NOT NULL,
	"validity_days" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "add_ons_price_nonnegative" CHECK ("add_ons"."price_amount" >= 0),
	CONSTRAINT "add_ons_status_valid" CHECK ("add_ons"."status" in ('draft', 'active', 'retired')),
	CONSTRAINT "add_ons_zone_for_roaming" CHECK (("add_ons"."kind" = 'roaming') = ("add_ons"."roaming_zone" is not null))
);
--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD COLUMN "usage_limit_by_email" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD COLUMN "usage_limit_by_sms" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "add_on_purchases" ADD CONSTRAINT "add_on_purchases_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "add_on_purchases" ADD CONSTRAINT "add_on_purchases_line_id_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "add_on_purchases" ADD CONSTRAINT "add_on_purchases_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "add_on_purchases" ADD CONSTRAINT "add_on_purchases_add_on_id_add_ons_id_fk" FOREIGN KEY ("add_on_id") REFERENCES "public"."add_ons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "add_on_purchases" ADD CONSTRAINT "add_on_purchases_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "add_ons" ADD CONSTRAINT "add_ons_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "add_on_purchases_line_idx" ON "add_on_purchases" USING btree ("line_id","expires_at");--> statement-breakpoint
CREATE INDEX "add_on_purchases_due_idx" ON "add_on_purchases" USING btree ("expires_at") WHERE "add_on_purchases"."status" = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "add_ons_operator_code_uq" ON "add_ons" USING btree ("operator_code","code");