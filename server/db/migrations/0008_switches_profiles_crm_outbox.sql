CREATE TABLE "crm_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"source_type" text NOT NULL,
	"source_id" text NOT NULL,
	"fields" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"crm_lead_id" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "crm_outbox_status_valid" CHECK ("crm_outbox"."status" in ('pending', 'delivered', 'dead'))
);
--> statement-breakpoint
CREATE TABLE "subscriber_profiles" (
	"operator_code" text NOT NULL,
	"uid" text NOT NULL,
	"consent" jsonb,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriber_profiles_operator_code_uid_pk" PRIMARY KEY("operator_code","uid")
);
--> statement-breakpoint
ALTER TABLE "crm_outbox" ADD CONSTRAINT "crm_outbox_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriber_profiles" ADD CONSTRAINT "subscriber_profiles_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "crm_outbox_source_idx" ON "crm_outbox" USING btree ("operator_code","source_type","source_id");--> statement-breakpoint
CREATE INDEX "crm_outbox_due_idx" ON "crm_outbox" USING btree ("next_attempt_at") WHERE "crm_outbox"."status" = 'pending';