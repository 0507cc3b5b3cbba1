CREATE TABLE "subscriber_names" (
	"name" text PRIMARY KEY NOT NULL,
	"accounts" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ticket_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_id" uuid NOT NULL,
	"author_uid" text NOT NULL,
	"author_role" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"account_id" uuid NOT NULL,
	"category" text NOT NULL,
	"subject" text NOT NULL,
	"status" text DEFAULT 'acknowledged' NOT NULL,
	"priority" text NOT NULL,
	"assignee_uid" text,
	"created_by" text NOT NULL,
	"created_by_role" text NOT NULL,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tickets_status_valid" CHECK ("tickets"."status" in ('acknowledged', 'in_progress', 'pending', 'resolved', 'closed', 'cancelled')),
	CONSTRAINT "tickets_priority_valid" CHECK ("tickets"."priority" in ('low', 'medium', 'high', 'urgent'))
);
--> statement-breakpoint
ALTER TABLE "lines" ADD COLUMN "msisdn_digits" text GENERATED ALWAYS AS (regexp_replace(msisdn, '[^0-9]', '', 'g')) STORED;--> statement-breakpoint
ALTER TABLE "ticket_messages" ADD CONSTRAINT "ticket_messages_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscriber_names_trgm_idx" ON "subscriber_names" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "ticket_messages_ticket_idx" ON "ticket_messages" USING btree ("ticket_id","created_at");--> statement-breakpoint
CREATE INDEX "tickets_queue_idx" ON "tickets" USING btree ("operator_code","status","created_at");--> statement-breakpoint
CREATE INDEX "tickets_account_idx" ON "tickets" USING btree ("account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "accounts_name_idx" ON "accounts" USING btree ("name");--> statement-breakpoint
CREATE INDEX "accounts_email_prefix_idx" ON "accounts" USING btree (lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "lines_msisdn_digits_trgm_idx" ON "lines" USING gin ("msisdn_digits" gin_trgm_ops);
--> statement-breakpoint
-- Written by hand (drizzle-kit does not generate triggers): subscriber_names follows accounts.name.
CREATE FUNCTION "subscriber_names_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.name = NEW.name THEN RETURN NULL; END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE subscriber_names SET accounts = accounts - 1 WHERE name = OLD.name;
    DELETE FROM subscriber_names WHERE name = OLD.name AND accounts <= 0;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO subscriber_names (name, accounts) VALUES (NEW.name, 1)
      ON CONFLICT (name) DO UPDATE SET accounts = subscriber_names.accounts + 1;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "accounts_subscriber_names" AFTER INSERT OR DELETE OR UPDATE OF "name" ON "accounts" FOR EACH ROW EXECUTE FUNCTION "subscriber_names_count"();--> statement-breakpoint
INSERT INTO "subscriber_names" ("name", "accounts") SELECT "name", count(*) FROM "accounts" GROUP BY "name" ON CONFLICT ("name") DO NOTHING;
