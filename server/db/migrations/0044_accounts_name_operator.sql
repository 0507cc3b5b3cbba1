-- Hand-written (issue 30, item 3): a name search counts every account of every close name, up to
-- 10,000 of them. With the operator beside the name in the index, that count is an index-only scan
-- (7 ms for the 12,472 accounts close to "Jordan Smith" at 1M accounts, against 46 ms reading each
-- account's row to see its operator), and a page of it ranks the accounts by their name's score from
-- the index alone (the id included), reading only the rows it shows. It replaces the index on the
-- name alone, which it covers.
CREATE INDEX IF NOT EXISTS "accounts_name_operator_idx" ON "accounts" USING btree ("name", "operator_code") INCLUDE ("id");
--> statement-breakpoint
DROP INDEX IF EXISTS "accounts_name_idx";
