import { and, eq, inArray, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accounts, invoices, notifications, type InvoiceItem } from "../../db/schema";
import { conflict } from "../../errors";
import { words } from "../../i18n/words";
import type { ActionHandler } from "../../engine/types";
import type { InvoiceRow } from "../invoices/records";
import { paymentWaitingFor } from "../invoicePayments/settle";
import { inAccountRange, type AccountRange } from "../billingRuns/accountRanges";

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const addMonths = (date: Date, months: number) =>
  new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, date.getUTCDate()));

/** The billing settings of an operator (operators.settings), with their defaults. */
export function billingSettingsOf(settings: Record<string, unknown> | null | undefined) {
  const int = (value: unknown, fallback: number) =>
    Number.isInteger(value) && (value as number) >= 0 ? (value as number) : fallback;
  return {
    taxRateBps: int(settings?.taxRateBps, 0),
    billDueDays: int(settings?.billDueDays, 14),
    overdueGraceDays: int(settings?.overdueGraceDays, 10),
  };
}

/** The cycle a bill issued on `asOf` closes, for an account whose cycle day is `cycleDay`: it started a month before the last cycle day. */
export function lastClosedCycle(cycleDay: number, asOf: Date) {
  const today = new Date(Date.UTC(asOf.getUTCFullYear(), asOf.getUTCMonth(), asOf.getUTCDate()));
  let issued = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), cycleDay));
  if (issued > today) issued = addMonths(issued, -1);
  return { issued, periodStart: addMonths(issued, -1), periodEnd: new Date(issued.getTime() - DAY_MS) };
}

export interface IssuedBill {
  invoiceId: string;
  accountId: string;
  ownerUid: string | null;
  operatorCode: string;
}

/**
 * What a bill's line is, from the reference of the ledger charge it bills: a line's plan fee
 * ("line"), an add-on bought or renewed (an add_on order, "add_on_purchase"), a plan change's
 * proration (a change_plan order), usage beyond the allowance ("overage", id
 * "<lineId>:<usageType>:<roamingZone or home>", posted by the rating), else other.
 */
export function itemOf(charge: {
  amount: number;
  reason: string;
  referenceType: string | null;
  referenceId: string | null;
  orderType: string | null;
}): Omit<InvoiceItem, "ledgerEntryId"> {
  const base = { description: charge.reason, amount: charge.amount };
  switch (charge.referenceType) {
    case "line":
      return { label: "plan", ...base };
    case "add_on_purchase":
      return { label: "add_on", ...base };
    case "order":
      return {
        label: charge.orderType === "add_on" ? "add_on" : charge.orderType === "change_plan" ? "proration" : "other",
        ...base,
      };
    case "overage": {
      const [, usageType, roamingZone] = (charge.referenceId ?? "").split(":");
      return { label: "overage", ...base, usageType: usageType || "data", roamingZone: roamingZone || "home" };
    }
    default:
      return { label: "other", ...base };
  }
}

/** Bills still issued after their due date become overdue (the holder is told); only `operatorCode`'s when given. Returns those changed. */
export async function markOverdueBills(
  db: Db,
  options: { asOf?: Date; operatorCode?: string; accounts?: AccountRange } = {},
): Promise<IssuedBill[]> {
  const today = isoDay(options.asOf ?? new Date());
  return db.transaction(async (tx) => {
    const changed = await tx
      .update(invoices)
      .set({ status: "overdue", updatedAt: new Date() })
      .where(
        and(
          eq(invoices.status, "issued"),
          lt(invoices.dueOn, today),
          options.operatorCode ? eq(invoices.operatorCode, options.operatorCode) : undefined,
          inAccountRange(invoices.accountId, options.accounts),
        ),
      )
      .returning({
        invoiceId: invoices.id,
        accountId: invoices.accountId,
        operatorCode: invoices.operatorCode,
        total: invoices.totalAmount,
        currency: invoices.currency,
      });
    if (changed.length === 0) return [];
    const owners = new Map(
      (
        await tx
          .select({ id: accounts.id, ownerUid: accounts.ownerUid })
          .from(accounts)
          .where(inArray(accounts.id, [...new Set(changed.map((c) => c.accountId))]))
      ).map((a) => [a.id, a.ownerUid]),
    );
    const notices = changed.filter((c) => owners.get(c.accountId));
    if (notices.length) {
      await tx.insert(notifications).values(
        notices.map((c) => ({
          operatorCode: c.operatorCode,
          recipientUid: owners.get(c.accountId)!,
          kind: "bill.overdue" as const,
          params: { total: c.total, currency: c.currency },
          link: `/invoices/show/${c.invoiceId}`,
        })),
      );
    }
    return changed.map((c) => ({
      invoiceId: c.invoiceId,
      accountId: c.accountId,
      operatorCode: c.operatorCode,
      ownerUid: owners.get(c.accountId) ?? null,
    }));
  });
}

/**
 * An admin voids a bill with a reason: it is no longer owed (its charges stay collected by it, so
 * they are never billed again). Not while a card payment of it waits for the gateway: that charge
 * may still be captured, and it would pay a bill that no longer exists (409 until it settles).
 */
export const voidInvoice: ActionHandler<InvoiceRow> = {
  async run(ctx) {
    // The bill's row is locked by the action, and paying locks it too: no payment starts meanwhile.
    if (await paymentWaitingFor(ctx.tx, ctx.row.invoice.id))
      throw conflict(words("invoices.voidWhilePaying"), [
        { path: "status", message: words("invoices.paymentInProgress") },
      ]);
    await ctx.tx
      .update(invoices)
      .set({ status: "void", voidReason: ctx.reason!, updatedAt: new Date() })
      .where(eq(invoices.id, ctx.row.invoice.id));
    if (ctx.row.ownerUid) {
      await ctx.effects.notify({
        recipientUid: ctx.row.ownerUid,
        kind: "bill.voided",
        params: {
          total: ctx.row.invoice.totalAmount,
          currency: ctx.row.invoice.currency,
          number: ctx.row.invoice.number,
          byRole: ctx.principal.role,
        },
        link: `/invoices/show/${ctx.row.invoice.id}`,
      });
    }
  },
};
