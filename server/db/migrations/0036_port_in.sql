-- Hand-written (issue 28 item 3, port-in). An order may wait for its subscriber: `pending` (TMF622),
-- a port-in the number portability exchange rejected until its details are corrected and resubmitted.
-- Each sending of a port-in to the exchange is a row: the queue its job works from, the exchange's
-- request id its answer names, and the answer (recorded once).
ALTER TABLE "orders" DROP CONSTRAINT IF EXISTS "orders_state_valid";
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_state_valid" CHECK ("orders"."state" in ('acknowledged', 'in_progress', 'pending', 'completed', 'failed', 'cancelled'));
--> statement-breakpoint
CREATE TABLE "port_in_submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"order_id" uuid NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"exchange_request_id" text,
	"rejection_code" text,
	"rejection_text" text,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "port_in_submissions_status_valid" CHECK ("port_in_submissions"."status" in ('queued', 'sent', 'accepted', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "port_in_submissions" ADD CONSTRAINT "port_in_submissions_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "port_in_submissions" ADD CONSTRAINT "port_in_submissions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "port_in_submissions_due_idx" ON "port_in_submissions" USING btree ("next_attempt_at") WHERE "port_in_submissions"."status" in ('queued', 'sent');
--> statement-breakpoint
CREATE INDEX "port_in_submissions_order_idx" ON "port_in_submissions" USING btree ("order_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "port_in_submissions_request_uq" ON "port_in_submissions" USING btree ("exchange_request_id");
