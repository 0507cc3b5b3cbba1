import { sql } from "drizzle-orm";
import type { LedgerKind } from "#resources/ledgerEntries";
import type { Executor } from "../../audit";
import { rowsOf } from "../../db/rowsOf";
import { queueAutoTopUpIfLow } from "../autoTopUps/queue";

/** One debit of a system posting made in bulk (rating, the daily job's renewals). */
export interface BatchLedgerEntry {
  accountId: string;
  kind: LedgerKind;
  /** Positive integer minor units; the kind gives the sign. */
  amount: number;
  currency: string;
  reason: string;
  idempotencyKey: string;
  referenceType: string;
  referenceId: string;
}

/**
 * Posts many system debits in one statement, inside the caller's transaction, which already holds
 * the lock of every account named and has checked that each prepaid balance covers its debits (the
 * insert trigger moves the balances row by row, and refuses any that would go below zero). An entry
 * whose idempotency key its account already has is not posted again. A prepaid debit that leaves the
 * balance under an auto top-up threshold queues one, as postLedgerEntry does.
 */
export async function postLedgerEntries(
  tx: Executor,
  operatorCode: string,
  entries: readonly BatchLedgerEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  const column = <T>(pick: (e: BatchLedgerEntry) => T) => sql.param(entries.map(pick));
  const posted = rowsOf<{
    account_id: string;
    currency: string;
    balance_after: number | null;
  }>(
    await tx.execute(sql`
      insert into ledger_entries (operator_code, account_id, kind, amount, currency, reason, actor_uid, actor_role, idempotency_key, reference_type, reference_id)
      select ${operatorCode}, account_id, kind, amount, currency, reason, null, 'system', idempotency_key, reference_type, reference_id
      from unnest(${column((e) => e.accountId)}::uuid[], ${column((e) => e.kind)}::text[], ${column((e) => e.amount)}::int[],
                  ${column((e) => e.currency)}::text[], ${column((e) => e.reason)}::text[], ${column((e) => e.idempotencyKey)}::text[],
                  ${column((e) => e.referenceType)}::text[], ${column((e) => e.referenceId)}::text[])
        as e(account_id, kind, amount, currency, reason, idempotency_key, reference_type, reference_id)
      on conflict (account_id, idempotency_key) where idempotency_key is not null do nothing
      returning account_id, currency, balance_after`),
  );
  // The balance each prepaid account was left with: the lowest its debits reached.
  const prepaidAfter = new Map<string, { balance: number; currency: string }>();
  for (const row of posted) {
    if (row.balance_after === null) continue;
    const before = prepaidAfter.get(row.account_id);
    if (!before || Number(row.balance_after) < before.balance)
      prepaidAfter.set(row.account_id, { balance: Number(row.balance_after), currency: row.currency });
  }
  if (prepaidAfter.size) {
    const withSettings = rowsOf<{ account_id: string }>(
      await tx.execute(
        sql`select account_id from auto_top_up_settings where enabled and account_id = any(${sql.param([...prepaidAfter.keys()])}::uuid[])`,
      ),
    );
    for (const { account_id } of withSettings) {
      const after = prepaidAfter.get(account_id)!;
      await queueAutoTopUpIfLow(tx, {
        operatorCode,
        accountId: account_id,
        currency: after.currency,
        balanceAfter: after.balance,
      });
    }
  }
}
