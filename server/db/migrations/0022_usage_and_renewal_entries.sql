-- Hand-written: two new debits on the ledger, for the carrier's cycle (issue 24). `usage` is rated
-- usage charged to a prepaid balance (one entry per line per ingest batch); `renewal` is a prepaid
-- plan renewed from the balance on its cycle day. Both take from a balance as `charge` does, so the
-- insert trigger now subtracts every debit kind; otherwise the same function as 0020.
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_kind_valid";--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_kind_valid" CHECK ("ledger_entries"."kind" in ('top_up', 'charge', 'adjustment', 'refund', 'reversal', 'payment', 'usage', 'renewal'));--> statement-breakpoint
CREATE OR REPLACE FUNCTION "ledger_entries_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	account_type text;
	account_currency text;
	new_balance integer;
BEGIN
	SELECT a."type", o."currency" INTO account_type, account_currency
		FROM "accounts" a JOIN "operators" o ON o."code" = a."operator_code"
		WHERE a."id" = NEW."account_id" AND a."operator_code" = NEW."operator_code";
	IF account_type IS NULL THEN
		RAISE EXCEPTION 'ledger entry for account % not of operator %', NEW."account_id", NEW."operator_code" USING ERRCODE = 'foreign_key_violation';
	END IF;
	IF NEW."currency" <> account_currency THEN
		RAISE EXCEPTION 'ledger entry in % on an account kept in %', NEW."currency", account_currency USING ERRCODE = 'check_violation';
	END IF;
	IF account_type = 'prepaid' THEN
		PERFORM set_config('money.ledger_apply', 'on', true);
		UPDATE "accounts"
			SET "balance_amount" = "balance_amount" + (CASE WHEN NEW."kind" IN ('charge', 'usage', 'renewal') THEN -NEW."amount" ELSE NEW."amount" END)
			WHERE "id" = NEW."account_id"
			RETURNING "balance_amount" INTO new_balance;
		PERFORM set_config('money.ledger_apply', 'off', true);
		NEW."balance_after" := new_balance;
	ELSE
		NEW."balance_after" := NULL;
	END IF;
	RETURN NEW;
END;
$$;
