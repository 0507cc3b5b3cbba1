CREATE TABLE "auto_top_up_settings" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"operator_code" text NOT NULL,
	"enabled" boolean NOT NULL,
	"threshold_amount" integer NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"max_per_month" integer NOT NULL,
	"updated_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auto_top_up_settings_threshold_positive" CHECK ("auto_top_up_settings"."threshold_amount" > 0),
	CONSTRAINT "auto_top_up_settings_amount_positive" CHECK ("auto_top_up_settings"."amount" > 0),
	CONSTRAINT "auto_top_up_settings_max_per_month" CHECK ("auto_top_up_settings"."max_per_month" between 1 and 31)
);
--> statement-breakpoint
CREATE TABLE "auto_top_ups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"account_id" uuid NOT NULL,
	"month" text NOT NULL,
	"seq" integer NOT NULL,
	"max_per_month" integer NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"top_up_id" uuid,
	"skip_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auto_top_ups_seq_within_cap" CHECK ("auto_top_ups"."seq" between 1 and "auto_top_ups"."max_per_month"),
	CONSTRAINT "auto_top_ups_amount_positive" CHECK ("auto_top_ups"."amount" > 0),
	CONSTRAINT "auto_top_ups_status_valid" CHECK ("auto_top_ups"."status" in ('queued', 'submitted', 'skipped')),
	CONSTRAINT "auto_top_ups_month_format" CHECK ("auto_top_ups"."month" ~ '^[0-9]{4}-[0-9]{2}$')
);
--> statement-breakpoint
ALTER TABLE "auto_top_up_settings" ADD CONSTRAINT "auto_top_up_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_top_up_settings" ADD CONSTRAINT "auto_top_up_settings_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_top_ups" ADD CONSTRAINT "auto_top_ups_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_top_ups" ADD CONSTRAINT "auto_top_ups_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_top_ups" ADD CONSTRAINT "auto_top_ups_top_up_id_top_ups_id_fk" FOREIGN KEY ("top_up_id") REFERENCES "public"."top_ups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "auto_top_ups_month_seq_uq" ON "auto_top_ups" USING btree ("account_id","month","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "auto_top_ups_one_queued_uq" ON "auto_top_ups" USING btree ("account_id") WHERE "auto_top_ups"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "auto_top_ups_queued_idx" ON "auto_top_ups" USING btree ("created_at") WHERE "auto_top_ups"."status" = 'queued';