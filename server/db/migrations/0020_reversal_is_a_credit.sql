-- Hand-written: a `reversal` now credits a prepaid balance. It is the entry an agent approves a
-- refund claim into (issue 9 item 6): a top-up failed or was cancelled on our side while the gateway
-- captured the card's money, and the reversal undoes that failure by crediting the captured amount.
-- No code posted a reversal before this migration, so no stored balance changes meaning; only
-- `charge` takes from a balance now. Otherwise the same function as 0006_money.sql.
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
			SET "balance_amount" = "balance_amount" + (CASE WHEN NEW."kind" = 'charge' THEN -NEW."amount" ELSE NEW."amount" END)
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
