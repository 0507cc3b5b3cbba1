import { and, eq } from "drizzle-orm";
import type { ResourceEvent } from "../../../src/resources/events";
import { recordAudit, type Executor } from "../../audit";
import { accounts, invoicePayments, invoices, lines, notifications, paymentMethods } from "../../db/schema";
import { postLedgerEntry } from "../money/ledger";
import { nextAutopayAt } from "./autopaySchedule";

export type InvoicePaymentRow = typeof invoicePayments.$inferSelect;

/** What the gateway said about a bill payment's charge, from its answer or its webhook. */
export type PaymentSettlement = { outcome: "succeeded"; chargeId: string } | { outcome: "failed"; chargeId: string | null; failureCode: string };

/** The ledger key of a bill's payment: one per bill, so it is posted once whoever settles first. */
export const invoicePaidKey = (invoiceId: string) => `invoice-paid:${invoiceId}`;

type Events = Omit<ResourceEvent, "at">[];

/**
 * Restores the account's lines suspended for non_payment once no bill of the account is overdue any
 * more (paying the last overdue bill brings the lines back). In the caller's transaction.
 */
export async function restoreAfterPayment(tx: Executor, accountId: string, ownerUid: string | null, operatorCode: string, events: Events) {
  const [stillOverdue] = await tx.select({ id: invoices.id }).from(invoices).where(and(eq(invoices.accountId, accountId), eq(invoices.status, "overdue"))).limit(1);
  if (stillOverdue) return [];
  const restored = await tx
    .update(lines)
    .set({ status: "active", suspendReason: null, updatedAt: new Date() })
    .where(and(eq(lines.accountId, accountId), eq(lines.status, "suspended"), eq(lines.suspendReason, "non_payment")))
    .returning({ id: lines.id, msisdn: lines.msisdn });
  for (const line of restored) {
    await recordAudit(tx, { operator: operatorCode, actorUid: null, actorRole: "system", action: "lines.restore", targetType: "lines", targetId: line.id, before: { status: "suspended", suspendReason: "non_payment" }, after: { status: "active", suspendReason: null }, reason: "bill paid", requestId: null });
    if (ownerUid) await tx.insert(notifications).values({ operatorCode, recipientUid: ownerUid, kind: "line.restored_payment", params: { msisdn: line.msisdn }, link: `/lines/show/${line.id}` });
  }
  if (restored.length) events.push({ operator: operatorCode, resource: "lines", type: "updated", ids: restored.map((l) => l.id), ownerUids: ownerUid ? [ownerUid] : [] });
  return restored.map((l) => l.id);
}

/** Whether a payment of the bill still waits for the gateway's answer (its charge may yet be captured). */
export async function paymentWaitingFor(tx: Executor, invoiceId: string): Promise<boolean> {
  const [pending] = await tx.select({ id: invoicePayments.id }).from(invoicePayments).where(and(eq(invoicePayments.invoiceId, invoiceId), eq(invoicePayments.status, "created"))).limit(1);
  return Boolean(pending);
}

/**
 * Applies a charge's outcome to a bill payment, in the caller's transaction, however often and in
 * whatever order the answer and the webhooks arrive (the top-up pattern, ../topUps/settle.ts): the
 * payment row is locked and only a `created` one moves. Succeeded → the bill is paid with one
 * `payment` credit in the ledger (keyed by the bill), lines suspended for non_payment come back.
 * Failed → the bill is unchanged, the holder is told, and an autopay payment's next try is scheduled
 * on the backoff. Answers the payment as it stands and the live events to send after the commit.
 */
export async function settleInvoicePayment(
  tx: Executor,
  paymentId: string,
  settlement: PaymentSettlement,
  by: { via: "charge" | "webhook"; requestId: string | null; now?: Date },
): Promise<{ row: InvoicePaymentRow; events: Events } | null> {
  const [row] = await tx.select().from(invoicePayments).where(eq(invoicePayments.id, paymentId)).for("update");
  if (!row) return null;
  const events: Events = [];
  if (row.status !== "created") return { row, events };
  const [bill] = await tx
    .select({ invoice: invoices, ownerUid: accounts.ownerUid })
    .from(invoices)
    .innerJoin(accounts, eq(accounts.id, invoices.accountId))
    .where(eq(invoices.id, row.invoiceId))
    .for("update", { of: invoices });
  const invoice = bill!.invoice;
  const owners = bill!.ownerUid ? [bill!.ownerUid] : [];
  const params = { number: invoice.number, total: invoice.totalAmount, currency: invoice.currency };
  const notify = async (kind: "bill.paid" | "bill.payment_failed", extra: Record<string, unknown>) => {
    if (!bill!.ownerUid) return;
    const [notice] = await tx
      .insert(notifications)
      .values({ operatorCode: row.operatorCode, recipientUid: bill!.ownerUid, kind, params: { ...params, ...extra }, link: `/invoices/show/${invoice.id}` })
      .returning({ id: notifications.id });
    events.push({ operator: row.operatorCode, resource: "notifications", type: "created", ids: [notice!.id], ownerUids: owners });
  };
  const audit = (action: string, after: Record<string, unknown>) =>
    recordAudit(tx, { operator: row.operatorCode, actorUid: null, actorRole: "system", action, targetType: "invoices", targetId: invoice.id, before: { status: invoice.status }, after, reason: `gateway ${by.via}`, requestId: by.requestId });

  if (settlement.outcome === "succeeded") {
    const [updated] = await tx.update(invoicePayments).set({ status: "succeeded", gatewayChargeId: settlement.chargeId, updatedAt: new Date() }).where(eq(invoicePayments.id, paymentId)).returning();
    // A bill no longer open (voiding waits for pending payments, so only a change outside the API
    // gets here) still gets the captured money written down, never silently dropped: as owed back.
    const open = invoice.status === "issued" || invoice.status === "overdue";
    await postLedgerEntry(tx, {
      operatorCode: row.operatorCode,
      accountId: row.accountId,
      kind: "payment",
      amount: row.amount,
      currency: row.currency,
      reason: open ? `Payment of bill ${invoice.number}` : `Payment for bill ${invoice.number}, captured after the bill was ${invoice.status}: to be refunded`,
      actorUid: row.createdBy,
      actorRole: "system",
      idempotencyKey: open ? invoicePaidKey(invoice.id) : `invoice-payment-unapplied:${row.id}`,
      reference: { type: "invoices", id: invoice.id },
    });
    events.push({ operator: row.operatorCode, resource: "ledger-entries", type: "created", ids: [row.accountId], ownerUids: owners });
    if (open) {
      const paidAt = new Date();
      await tx.update(invoices).set({ status: "paid", paidAt, autopayNextAt: null, updatedAt: paidAt }).where(eq(invoices.id, invoice.id));
      await audit("invoices.pay", { status: "paid", paymentId, via: row.via });
      events.push({ operator: row.operatorCode, resource: "invoices", type: "updated", ids: [invoice.id], ownerUids: owners });
      await notify("bill.paid", {});
      await restoreAfterPayment(tx, row.accountId, bill!.ownerUid, row.operatorCode, events);
    } else {
      // The audit entry tells staff the money is owed back.
      await audit("invoices.payment-unapplied", { status: invoice.status, paymentId, via: row.via, amount: row.amount });
    }
    return { row: updated!, events };
  }

  const [updated] = await tx
    .update(invoicePayments)
    .set({ status: "failed", failureReason: settlement.failureCode, gatewayChargeId: settlement.chargeId ?? row.gatewayChargeId, updatedAt: new Date() })
    .where(eq(invoicePayments.id, paymentId))
    .returning();
  const [card] = row.paymentMethodId ? await tx.select({ last4: paymentMethods.last4 }).from(paymentMethods).where(eq(paymentMethods.id, row.paymentMethodId)) : [];
  await audit("invoices.payment-failed", { status: invoice.status, paymentId, via: row.via, failureReason: settlement.failureCode });
  await notify("bill.payment_failed", { failureReason: settlement.failureCode, last4: card?.last4 ?? "", via: row.via });
  if (row.via === "autopay" && (invoice.status === "issued" || invoice.status === "overdue")) {
    const attempts = invoice.autopayAttempts + 1;
    await tx.update(invoices).set({ autopayAttempts: attempts, autopayNextAt: nextAutopayAt(attempts, by.now ?? new Date()) }).where(eq(invoices.id, invoice.id));
  }
  return { row: updated!, events };
}
