-- Hand-written: the access log (issue 27 item 3). One row per staff member, subscriber and section of
-- the subscriber's data they read, at most one per 10 minutes (server/domain/accessLog). The role is
-- kept as it was at the read (it names the team the subscriber is shown); never the staff email.
CREATE TABLE "staff_reads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"staff_uid" text NOT NULL,
	"staff_role" text NOT NULL,
	"subscriber_uid" text NOT NULL,
	"section" text NOT NULL,
	"request_id" text,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_reads_staff_role_valid" CHECK ("staff_reads"."staff_role" in ('agent', 'admin'))
);
--> statement-breakpoint
ALTER TABLE "staff_reads" ADD CONSTRAINT "staff_reads_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "staff_reads_subscriber_idx" ON "staff_reads" USING btree ("operator_code","subscriber_uid","read_at" DESC,"id" DESC);
--> statement-breakpoint
CREATE INDEX "staff_reads_window_idx" ON "staff_reads" USING btree ("operator_code","staff_uid","subscriber_uid","section","read_at" DESC);
--> statement-breakpoint
CREATE INDEX "staff_reads_read_at_idx" ON "staff_reads" USING btree ("operator_code","read_at" DESC,"id" DESC);
