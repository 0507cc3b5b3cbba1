CREATE TABLE "resource_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_code" text NOT NULL,
	"resource" text NOT NULL,
	"owner_uid" text,
	"data" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "resource_documents_data_is_object" CHECK (jsonb_typeof("resource_documents"."data") = 'object')
);
--> statement-breakpoint
ALTER TABLE "resource_documents" ADD CONSTRAINT "resource_documents_operator_code_operators_code_fk" FOREIGN KEY ("operator_code") REFERENCES "public"."operators"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "resource_documents_list_idx" ON "resource_documents" USING btree ("operator_code","resource","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "resource_documents_owner_idx" ON "resource_documents" USING btree ("operator_code","resource","owner_uid");