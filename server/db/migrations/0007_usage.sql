CREATE TABLE "notification_preferences" (
	"operator_code" text NOT NULL,
	"uid" text NOT NULL,
	"usage_alerts_by_email" boolean DEFAULT false NOT NULL,
	"usage_alerts_by_sms" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_preferences_operator_code_uid_pk" PRIMARY KEY("operator_code","uid")
);
--> statement-breakpoint
CREATE TABLE "outbox_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"kind" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "outbox_messages_channel" CHECK ("outbox_messages"."channel" in ('email', 'sms'))
);
--> statement-breakpoint
CREATE TABLE "usage_alerts" (
	"line_id" uuid NOT NULL,
	"cycle_start" date NOT NULL,
	"type" text NOT NULL,
	"threshold" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_alerts_line_id_cycle_start_type_threshold_pk" PRIMARY KEY("line_id","cycle_start","type","threshold"),
	CONSTRAINT "usage_alerts_threshold" CHECK ("usage_alerts"."threshold" in (80, 100))
);
--> statement-breakpoint
CREATE TABLE "usage_counters" (
	"line_id" uuid NOT NULL,
	"cycle_start" date NOT NULL,
	"type" text NOT NULL,
	"used" bigint DEFAULT 0 NOT NULL,
	"last_record_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_counters_line_id_cycle_start_type_pk" PRIMARY KEY("line_id","cycle_start","type")
);
--> statement-breakpoint
CREATE TABLE "usage_records" (
	"operator_code" text NOT NULL,
	"id" text NOT NULL,
	"line_id" uuid NOT NULL,
	"type" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"quantity" integer NOT NULL,
	"roaming_zone" text,
	"cycle_start" date NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_records_operator_code_id_pk" PRIMARY KEY("operator_code","id"),
	CONSTRAINT "usage_records_quantity_nonnegative" CHECK ("usage_records"."quantity" >= 0)
);
--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_alerts" ADD CONSTRAINT "usage_alerts_line_id_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_counters" ADD CONSTRAINT "usage_counters_line_id_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_messages_pending_idx" ON "outbox_messages" USING btree ("created_at") WHERE "outbox_messages"."sent_at" is null;--> statement-breakpoint
CREATE INDEX "usage_records_line_started_idx" ON "usage_records" USING btree ("line_id","started_at" DESC NULLS LAST);