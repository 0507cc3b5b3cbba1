-- Hand-written: prepaid renewals (issue 24). A prepaid line's plan renews from the balance on its
-- cycle day; a balance short of the price puts the line in `grace` (until `grace_ends_on`, then it is
-- suspended for non_payment). `renewed_cycle_start` is the start of the last cycle paid for (null: the
-- cycle the line was created in, which its activation paid); `renewal_reminded_for` the cycle a
-- "balance will not cover your renewal" notice was sent for (once per line and cycle). Line status
-- is a free text column with no list check; `grace` and its end date go together.
ALTER TABLE "lines" ADD COLUMN "renewed_cycle_start" date;--> statement-breakpoint
ALTER TABLE "lines" ADD COLUMN "grace_ends_on" date;--> statement-breakpoint
ALTER TABLE "lines" ADD COLUMN "renewal_reminded_for" date;--> statement-breakpoint
ALTER TABLE "lines" ADD CONSTRAINT "lines_grace_ends_only_in_grace" CHECK (("lines"."status" = 'grace') = ("lines"."grace_ends_on" is not null));--> statement-breakpoint
CREATE INDEX "lines_operator_status_grace_idx" ON "lines" USING btree ("operator_code","status","grace_ends_on");
