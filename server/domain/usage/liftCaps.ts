import { sql } from "drizzle-orm";
import type { Executor } from "../../audit";
import { rowsOf } from "../../db/rowsOf";

/**
 * After a credit on a prepaid account (top-up, voucher, adjustment, refund…), in its transaction:
 * once the balance is above zero again, the lines of the account whose usage was barred because the
 * balance could not pay for it go on (issue 24). Caps for other reasons stay: a plan without a rate
 * past its allowance still stops there, and pay-as-you-go turned off stays off. Called by
 * postLedgerEntry under its lock of the account row (the ingest locks accounts before it writes caps,
 * so the two never wait on each other in opposite orders). Returns the lines whose caps were lifted.
 */
export async function liftCapsAfterCredit(
  tx: Executor,
  { operatorCode, accountId }: { operatorCode: string; accountId: string },
): Promise<string[]> {
  const lifted = rowsOf<{ line_id: string }>(
    await tx.execute(sql`
      delete from usage_caps c using lines l, accounts a
      where c.line_id = l.id and l.account_id = a.id and a.id = ${accountId} and a.operator_code = ${operatorCode}
        and a.type = 'prepaid' and a.balance_amount > 0 and c.reason = 'balance'
      returning c.line_id`),
  );
  return [...new Set(lifted.map((r) => r.line_id))];
}

/**
 * An add-on with data bought on a line: its data goes on whatever barred it (the add-on's MB count
 * first), except the owner's monthly limit of the line (issue 28), which still holds.
 */
export async function liftDataCap(tx: Executor, lineId: string): Promise<void> {
  await tx.execute(sql`delete from usage_caps where line_id = ${lineId} and type = 'data' and reason <> 'line_cap'`);
}

/**
 * A line moved to another plan now: its allowances and rates changed, so what barred it is decided
 * again by the next record; the owner's monthly limit of the line (issue 28) is not the plan's and stays.
 */
export async function liftCapsAfterPlanChange(tx: Executor, lineId: string): Promise<void> {
  await tx.execute(sql`delete from usage_caps where line_id = ${lineId} and reason <> 'line_cap'`);
}
