CREATE TABLE "bulk_job_items" (
	"job_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"target_id" text NOT NULL,
	"data" jsonb,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bulk_job_items_job_id_position_pk" PRIMARY KEY("job_id","position"),
	CONSTRAINT "bulk_job_items_status_valid" CHECK ("bulk_job_items"."status" in ('pending', 'succeeded', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "bulk_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"reason" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"total" integer NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"created_by" text NOT NULL,
	"created_by_role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bulk_jobs_kind_valid" CHECK ("bulk_jobs"."kind" in ('suspend-lines', 'restore-lines', 'import-lines')),
	CONSTRAINT "bulk_jobs_status_valid" CHECK ("bulk_jobs"."status" in ('queued', 'running', 'completed', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "bulk_job_items" ADD CONSTRAINT "bulk_job_items_job_id_bulk_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."bulk_jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_jobs_operator_created_idx" ON "bulk_jobs" USING btree ("operator_code","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "bulk_jobs_status_idx" ON "bulk_jobs" USING btree ("status");