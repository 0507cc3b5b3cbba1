CREATE INDEX "invoices_operator_paid_idx" ON "invoices" USING btree ("operator_code","paid_at") WHERE "invoices"."paid_at" is not null;--> statement-breakpoint
CREATE INDEX "lines_operator_created_idx" ON "lines" USING btree ("operator_code","created_at");--> statement-breakpoint
CREATE INDEX "lines_operator_status_updated_idx" ON "lines" USING btree ("operator_code","status","updated_at");