import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Money } from "#resources/common";
import { OPEN_INVOICE_STATUSES } from "#resources/invoices";
import type { Executor } from "../../audit";
import { accounts, invoices, operators } from "../../db/schema";

export interface AccountMoney {
  /** Prepaid: what is left to spend. */
  balance?: Money;
  /** Postpaid: the sum of the bills still open (issued or overdue); unbilled charges are not due yet. */
  amountDue?: Money;
  /** Postpaid: the oldest bill past its due date, which the home asks to pay first. */
  overdueBill?: { id: string; total: Money; dueOn: string };
}

/** What the amount due of an account is, in SQL (the accounts module selects it for lists too). */
export const amountDueSql = (accountId: unknown) =>
  sql<number>`(select coalesce(sum(${invoices.totalAmount}), 0)::int from ${invoices} where ${invoices.accountId} = ${accountId} and ${invoices.status} in (${sql.join(
    OPEN_INVOICE_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  )}))`;

/** The money of each account asked for: balance for prepaid, amount due for postpaid. Unknown ids are left out. */
export async function readAccountMoney(db: Executor, accountIds: string[]): Promise<Map<string, AccountMoney>> {
  const result = new Map<string, AccountMoney>();
  if (accountIds.length === 0) return result;
  const rows = await db
    .select({
      id: accounts.id,
      type: accounts.type,
      balance: accounts.balanceAmount,
      currency: operators.currency,
      due: amountDueSql(accounts.id),
    })
    .from(accounts)
    .innerJoin(operators, eq(operators.code, accounts.operatorCode))
    .where(and(inArray(accounts.id, accountIds)));
  for (const row of rows) {
    result.set(
      row.id,
      row.type === "prepaid"
        ? { balance: { amount: row.balance, currency: row.currency } }
        : { amountDue: { amount: Number(row.due), currency: row.currency } },
    );
  }
  const postpaid = rows.filter((row) => row.type === "postpaid");
  if (postpaid.length === 0) return result;
  // Oldest first, so the first one seen per account is the bill to pay first (invoices_status_due_idx).
  const overdue = await db
    .select({ id: invoices.id, accountId: invoices.accountId, total: invoices.totalAmount, dueOn: invoices.dueOn })
    .from(invoices)
    .where(
      and(
        eq(invoices.status, "overdue"),
        inArray(
          invoices.accountId,
          postpaid.map((row) => row.id),
        ),
      ),
    )
    .orderBy(asc(invoices.dueOn));
  for (const bill of overdue) {
    const money = result.get(bill.accountId)!;
    money.overdueBill ??= {
      id: bill.id,
      total: { amount: bill.total, currency: money.amountDue!.currency },
      dueOn: bill.dueOn,
    };
  }
  return result;
}
