CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"recipient_uid" text NOT NULL,
	"kind" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"link" text,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"account_id" uuid NOT NULL,
	"line_id" uuid,
	"type" text NOT NULL,
	"state" text DEFAULT 'acknowledged' NOT NULL,
	"effective" text DEFAULT 'now' NOT NULL,
	"scheduled_for" timestamp with time zone,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"timeline" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"requested_by" text NOT NULL,
	"requested_by_role" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_state_valid" CHECK ("orders"."state" in ('acknowledged', 'in_progress', 'completed', 'failed', 'cancelled')),
	CONSTRAINT "orders_type_valid" CHECK ("orders"."type" in ('change_plan', 'add_on', 'suspend', 'restore', 'sim_swap', 'esim_transfer', 'port_in', 'new_line'))
);
--> statement-breakpoint
ALTER TABLE "lines" ADD COLUMN "number_locked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "lines" ADD COLUMN "port_out_pin_hash" text;--> statement-breakpoint
ALTER TABLE "lines" ADD COLUMN "port_out_pin_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lines" ADD COLUMN "puk_cipher" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_line_id_lines_id_fk" FOREIGN KEY ("line_id") REFERENCES "public"."lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_recipient_idx" ON "notifications" USING btree ("operator_code","recipient_uid","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("operator_code","recipient_uid") WHERE "notifications"."read_at" is null;--> statement-breakpoint
CREATE INDEX "orders_operator_created_idx" ON "orders" USING btree ("operator_code","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_account_idx" ON "orders" USING btree ("account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_line_idx" ON "orders" USING btree ("line_id");--> statement-breakpoint
CREATE INDEX "orders_due_idx" ON "orders" USING btree ("scheduled_for") WHERE "orders"."state" = 'acknowledged' and "orders"."scheduled_for" is not null;