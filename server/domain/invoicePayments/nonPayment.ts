import { and, eq, inArray, lt } from "drizzle-orm";
import type { ResourceEvent } from "#resources/events";
import { recordAudit } from "../../audit";
import type { Db } from "../../db/client";
import { accounts, invoices, lines, notifications, operators } from "../../db/schema";
import { billingSettingsOf } from "../money/billing";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Bills overdue past the operator's grace period (operators.settings.overdueGraceDays) suspend the
 * account's active lines with reason non_payment; the holder is told once per line. Paying the bill
 * restores them (./settle.ts). Each operator in a transaction; a second run changes nothing.
 */
export async function suspendForNonPayment(
  db: Db,
  options: { asOf?: Date } = {},
): Promise<{ suspended: string[]; events: Omit<ResourceEvent, "at">[] }> {
  const asOf = options.asOf ?? new Date();
  const suspended: string[] = [];
  const events: Omit<ResourceEvent, "at">[] = [];
  for (const operator of await db.select({ code: operators.code, settings: operators.settings }).from(operators)) {
    const { overdueGraceDays } = billingSettingsOf(operator.settings);
    const lastDueOn = new Date(asOf.getTime() - overdueGraceDays * DAY_MS).toISOString().slice(0, 10);
    await db.transaction(async (tx) => {
      const unpaid = await tx
        .select({ accountId: invoices.accountId, number: invoices.number, ownerUid: accounts.ownerUid })
        .from(invoices)
        .innerJoin(accounts, eq(accounts.id, invoices.accountId))
        .where(
          and(eq(invoices.operatorCode, operator.code), eq(invoices.status, "overdue"), lt(invoices.dueOn, lastDueOn)),
        );
      if (!unpaid.length) return;
      const byAccount = new Map(unpaid.map((u) => [u.accountId, u]));
      const taken = await tx
        .update(lines)
        .set({ status: "suspended", suspendReason: "non_payment", updatedAt: new Date() })
        .where(and(inArray(lines.accountId, [...byAccount.keys()]), eq(lines.status, "active")))
        .returning({ id: lines.id, accountId: lines.accountId, msisdn: lines.msisdn });
      for (const line of taken) {
        const bill = byAccount.get(line.accountId)!;
        await recordAudit(tx, {
          operator: operator.code,
          actorUid: null,
          actorRole: "system",
          action: "lines.suspend",
          targetType: "lines",
          targetId: line.id,
          before: { status: "active", suspendReason: null },
          after: { status: "suspended", suspendReason: "non_payment" },
          reason: `bill ${bill.number} overdue past ${overdueGraceDays} days of grace`,
          requestId: null,
        });
        if (bill.ownerUid)
          await tx.insert(notifications).values({
            operatorCode: operator.code,
            recipientUid: bill.ownerUid,
            kind: "line.suspended_non_payment",
            params: { msisdn: line.msisdn, number: bill.number },
            link: `/lines/show/${line.id}`,
          });
        events.push({
          operator: operator.code,
          resource: "lines",
          type: "updated",
          ids: [line.id],
          ownerUids: bill.ownerUid ? [bill.ownerUid] : [],
        });
        suspended.push(line.id);
      }
    });
  }
  return { suspended, events };
}
