-- Hand-written: catalog text in Spanish beside the operator's default (issue 25). `name` and
-- `features` stay the default-language text; `translations` holds { "es": { "name", "features" } }.
ALTER TABLE "plans" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_translations_object" CHECK (jsonb_typeof("plans"."translations") = 'object');--> statement-breakpoint
ALTER TABLE "add_ons" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "add_ons" ADD CONSTRAINT "add_ons_translations_object" CHECK (jsonb_typeof("add_ons"."translations") = 'object');
