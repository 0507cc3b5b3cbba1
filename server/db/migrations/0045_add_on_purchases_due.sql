-- Hand-written (issue 30, item 1): add-ons run out by pages (server/domain/addOns/expiries.ts), each
-- page after the last one's (expires_at, id). With the id beside the time in the index, a page starts
-- where the last one ended, past the entries of the add-ons already renewed or expired (dead until a
-- vacuum): asking again from the start read them all each page, 148 s for 246,776 add-ons at 1M
-- accounts. It replaces the index on the time alone, which it covers.
CREATE INDEX IF NOT EXISTS "add_on_purchases_due_at_idx" ON "add_on_purchases" USING btree ("expires_at", "id") WHERE "add_on_purchases"."status" = 'active';
--> statement-breakpoint
DROP INDEX IF EXISTS "add_on_purchases_due_idx";
