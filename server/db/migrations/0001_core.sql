CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"owner_uid" text,
	"name" text NOT NULL,
	"email" text,
	"phone" text,
	"type" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"address" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"account_id" uuid NOT NULL,
	"msisdn" text NOT NULL,
	"iccid" text NOT NULL,
	"sim_type" text NOT NULL,
	"plan_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"suspend_reason" text,
	"cycle_day" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lines_cycle_day_range" CHECK ("lines"."cycle_day" between 1 and 28),
	CONSTRAINT "lines_suspend_reason_only_when_suspended" CHECK (("lines"."status" = 'suspended') = ("lines"."suspend_reason" is not null))
);
--> statement-breakpoint
CREATE TABLE "operators" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"currency" text NOT NULL,
	"timezone" text NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"price_amount" integer NOT NULL,
	"currency" text NOT NULL,
	"period" text DEFAULT 'month' NOT NULL,
	"data_mb" integer,
	"voice_minutes" integer,
	"sms" integer,
	"features" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plans_price_nonnegative" CHECK ("plans"."price_amount" >= 0)
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines" ADD CONSTRAINT "lines_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines" ADD CONSTRAINT "lines_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lines" ADD CONSTRAINT "lines_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_owner_idx" ON "accounts" USING btree ("operator_code","owner_uid");--> statement-breakpoint
CREATE INDEX "accounts_name_trgm_idx" ON "accounts" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "lines_operator_msisdn_uq" ON "lines" USING btree ("operator_code","msisdn");--> statement-breakpoint
CREATE UNIQUE INDEX "lines_iccid_uq" ON "lines" USING btree ("iccid");--> statement-breakpoint
CREATE INDEX "lines_account_idx" ON "lines" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "lines_msisdn_trgm_idx" ON "lines" USING gin ("msisdn" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "plans_operator_code_uq" ON "plans" USING btree ("operator_code","code");--> statement-breakpoint
CREATE INDEX "plans_operator_price_idx" ON "plans" USING btree ("operator_code","price_amount");