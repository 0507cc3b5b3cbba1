import { and, eq, inArray } from "drizzle-orm";
import type { ResourceEvent } from "#resources/events";
import { recordAudit, type Executor } from "../../audit";
import {
  accountCredits,
  accounts,
  invoiceCharges,
  invoicePayments,
  invoices,
  lines,
  notifications,
  paymentMethods,
} from "../../db/schema";
import { postLedgerEntry } from "../money/ledger";
import { nextAutopayAt } from "./autopaySchedule";

export type InvoicePaymentRow = typeof invoicePayments.$inferSelect;

/** What the gateway said about a bill payment's charge, from its answer or its webhook. */
export type PaymentSettlement =
  { outcome: "succeeded"; chargeId: string } | { outcome: "failed"; chargeId: string | null; failureCode: string };

type Events = Omit<ResourceEvent, "at">[];

/**
 * Restores the account's lines suspended for non_payment once no bill of the account is overdue any
 * more (paying the last overdue bill brings the lines back). In the caller's transaction.
 */
export async function restoreAfterPayment(
  tx: Executor,
  accountId: string,
  ownerUid: string | null,
  operatorCode: string,
  events: Events,
) {
  const [stillOverdue] = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.accountId, accountId), eq(invoices.status, "overdue")))
    .limit(1);
  if (stillOverdue) return [];
  const restored = await tx
    .update(lines)
    .set({ status: "active", suspendReason: null, updatedAt: new Date() })
    .where(and(eq(lines.accountId, accountId), eq(lines.status, "suspended"), eq(lines.suspendReason, "non_payment")))
    .returning({ id: lines.id, msisdn: lines.msisdn });
  for (const line of restored) {
    await recordAudit(tx, {
      operator: operatorCode,
      actorUid: null,
      actorRole: "system",
      action: "lines.restore",
      targetType: "lines",
      targetId: line.id,
      before: { status: "suspended", suspendReason: "non_payment" },
      after: { status: "active", suspendReason: null },
      reason: "bill paid",
      requestId: null,
    });
    if (ownerUid)
      await tx.insert(notifications).values({
        operatorCode,
        recipientUid: ownerUid,
        kind: "line.restored_payment",
        params: { msisdn: line.msisdn },
        link: `/lines/show/${line.id}`,
      });
  }
  if (restored.length)
    events.push({
      operator: operatorCode,
      resource: "lines",
      type: "updated",
      ids: restored.map((l) => l.id),
      ownerUids: ownerUid ? [ownerUid] : [],
    });
  return restored.map((l) => l.id);
}

/** Whether a payment of the bill still waits for the gateway's answer (its charge may yet be captured). */
export async function paymentWaitingFor(tx: Executor, invoiceId: string): Promise<boolean> {
  const [pending] = await tx
    .select({ id: invoicePayments.id })
    .from(invoicePayments)
    .where(and(eq(invoicePayments.invoiceId, invoiceId), eq(invoicePayments.status, "created")))
    .limit(1);
  return Boolean(pending);
}

/** The ledger key of a settled bill payment: one `payment` entry per payment, whoever settles it first. */
export const paymentSettledKey = (paymentId: string) => `invoice-payment-settled:${paymentId}`;
/** The ledger key of a returned bank payment's debit. */
export const paymentReturnedKey = (paymentId: string) => `invoice-payment-returned:${paymentId}`;
/** The ledger key of the debit for a returned bank payment's credit that a later bill had already deducted. */
export const paymentReturnedCreditKey = (paymentId: string) => `invoice-payment-returned-credit:${paymentId}`;

const lockBill = async (tx: Executor, invoiceId: string) =>
  (
    await tx
      .select({ invoice: invoices, ownerUid: accounts.ownerUid })
      .from(invoices)
      .innerJoin(accounts, eq(accounts.id, invoices.accountId))
      .where(eq(invoices.id, invoiceId))
      .for("update", { of: invoices })
  )[0]!;

/**
 * Applies a charge's outcome to a bill payment, in the caller's transaction, however often and in
 * whatever order the answer and the webhooks arrive (the top-up pattern, ../topUps/settle.ts): the
 * payment row is locked and only a `created` one moves. Succeeded → one `payment` credit in the
 * ledger (keyed by the payment); of its amount, what the bill still owes pays it (partly: the bill
 * stays open with less due; fully: paid, and lines suspended for non_payment come back) and the rest
 * (the bill was paid or closed meanwhile) becomes an account credit the next bill deducts.
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
  const bill = await lockBill(tx, row.invoiceId);
  const invoice = bill.invoice;
  const owners = bill.ownerUid ? [bill.ownerUid] : [];
  const params = { number: invoice.number, total: invoice.totalAmount, currency: invoice.currency };
  const notify = async (
    kind: "bill.paid" | "bill.payment_failed" | "bill.payment_received",
    extra: Record<string, unknown>,
  ) => {
    if (!bill.ownerUid) return;
    const [notice] = await tx
      .insert(notifications)
      .values({
        operatorCode: row.operatorCode,
        recipientUid: bill.ownerUid,
        kind,
        params: { ...params, ...extra },
        link: `/invoices/show/${invoice.id}`,
      })
      .returning({ id: notifications.id });
    events.push({
      operator: row.operatorCode,
      resource: "notifications",
      type: "created",
      ids: [notice!.id],
      ownerUids: owners,
    });
  };
  const audit = (action: string, after: Record<string, unknown>) =>
    recordAudit(tx, {
      operator: row.operatorCode,
      actorUid: null,
      actorRole: "system",
      action,
      targetType: "invoices",
      targetId: invoice.id,
      before: { status: invoice.status, paidAmount: invoice.paidAmount },
      after,
      reason: `gateway ${by.via}`,
      requestId: by.requestId,
    });

  if (settlement.outcome === "succeeded") {
    const open = invoice.status === "issued" || invoice.status === "overdue";
    const applied = open ? Math.min(row.amount, invoice.totalAmount - invoice.paidAmount) : 0;
    const excess = row.amount - applied;
    const [updated] = await tx
      .update(invoicePayments)
      .set({ status: "succeeded", gatewayChargeId: settlement.chargeId, appliedAmount: applied, updatedAt: new Date() })
      .where(eq(invoicePayments.id, paymentId))
      .returning();
    await postLedgerEntry(tx, {
      operatorCode: row.operatorCode,
      accountId: row.accountId,
      kind: "payment",
      amount: row.amount,
      currency: row.currency,
      reason:
        excess === 0
          ? `Payment of bill ${invoice.number}`
          : `Payment of bill ${invoice.number}: ${excess} kept as a credit for the next bill`,
      actorUid: row.createdBy,
      actorRole: "system",
      idempotencyKey: paymentSettledKey(row.id),
      reference: { type: "invoices", id: invoice.id },
    });
    events.push({
      operator: row.operatorCode,
      resource: "ledger-entries",
      type: "created",
      ids: [row.accountId],
      ownerUids: owners,
    });
    if (applied > 0) {
      const paidAmount = invoice.paidAmount + applied;
      const full = paidAmount === invoice.totalAmount;
      const now = new Date();
      await tx
        .update(invoices)
        .set(
          full
            ? { paidAmount, status: "paid", paidAt: now, autopayNextAt: null, updatedAt: now }
            : { paidAmount, updatedAt: now },
        )
        .where(eq(invoices.id, invoice.id));
      await audit("invoices.pay", {
        status: full ? "paid" : invoice.status,
        paidAmount,
        paymentId,
        via: row.via,
        amount: row.amount,
      });
      events.push({
        operator: row.operatorCode,
        resource: "invoices",
        type: "updated",
        ids: [invoice.id],
        ownerUids: owners,
      });
      if (full) {
        await notify("bill.paid", { paid: row.amount });
        await restoreAfterPayment(tx, row.accountId, bill.ownerUid, row.operatorCode, events);
      } else {
        await notify("bill.payment_received", { paid: row.amount, left: invoice.totalAmount - paidAmount });
      }
    }
    if (excess > 0) {
      // Paid beyond what the bill owed (it was paid or closed meanwhile): the next bill deducts it.
      await tx.insert(accountCredits).values({
        operatorCode: row.operatorCode,
        accountId: row.accountId,
        amount: excess,
        currency: row.currency,
        reason: `Overpayment of bill ${invoice.number}`,
        sourcePaymentId: row.id,
        sourceInvoiceId: invoice.id,
      });
      await audit("invoices.overpayment-credited", { status: invoice.status, paymentId, via: row.via, amount: excess });
    }
    return { row: updated!, events };
  }

  const [updated] = await tx
    .update(invoicePayments)
    .set({
      status: "failed",
      failureReason: settlement.failureCode,
      gatewayChargeId: settlement.chargeId ?? row.gatewayChargeId,
      updatedAt: new Date(),
    })
    .where(eq(invoicePayments.id, paymentId))
    .returning();
  const [method] = row.paymentMethodId
    ? await tx
        .select({ last4: paymentMethods.last4 })
        .from(paymentMethods)
        .where(eq(paymentMethods.id, row.paymentMethodId))
    : [];
  await audit("invoices.payment-failed", {
    status: invoice.status,
    paymentId,
    via: row.via,
    failureReason: settlement.failureCode,
  });
  await notify("bill.payment_failed", {
    failureReason: settlement.failureCode,
    last4: method?.last4 ?? "",
    via: row.via,
    methodType: row.methodType,
    paid: row.amount,
  });
  if (row.via === "autopay" && (invoice.status === "issued" || invoice.status === "overdue")) {
    const attempts = invoice.autopayAttempts + 1;
    await tx
      .update(invoices)
      .set({ autopayAttempts: attempts, autopayNextAt: nextAutopayAt(attempts, by.now ?? new Date()) })
      .where(eq(invoices.id, invoice.id));
  }
  return { row: updated!, events };
}

/**
 * A bank payment (ACH) that settled came back returned by the bank (the gateway's `charge.returned`),
 * in the caller's transaction, once: the payment becomes `returned`; what it paid of the bill is owed
 * again (a paid bill reopens: overdue when its due date has passed, else issued); a credit it left and
 * no bill used yet is cancelled; the ledger gets new `charge`s of the payment's amount in all (append-only:
 * the `payment` entry stays, these debits answer it): the part for this bill and the unused credit,
 * collected at once by the reopened bill (invoice_charges) so no cycle bills it a second time, and the
 * part of its credit a later bill already deducted, left unbilled so the next bill asks for it again;
 * the holder is told (and told of the credit owed again). Anything else (a card payment, one not
 * settled, one already returned) changes nothing.
 */
export async function returnInvoicePayment(
  tx: Executor,
  paymentId: string,
  returned: { failureCode: string },
  by: { requestId: string | null; now?: Date },
): Promise<{ row: InvoicePaymentRow; events: Events } | null> {
  const [row] = await tx.select().from(invoicePayments).where(eq(invoicePayments.id, paymentId)).for("update");
  if (!row) return null;
  const events: Events = [];
  if (row.status !== "succeeded" || row.methodType !== "bank_account") return { row, events };
  const bill = await lockBill(tx, row.invoiceId);
  const invoice = bill.invoice;
  const owners = bill.ownerUid ? [bill.ownerUid] : [];
  const now = by.now ?? new Date();
  const [updated] = await tx
    .update(invoicePayments)
    .set({ status: "returned", failureReason: returned.failureCode, updatedAt: now })
    .where(eq(invoicePayments.id, paymentId))
    .returning();

  let after: Record<string, unknown> = { status: invoice.status, paidAmount: invoice.paidAmount };
  if (row.appliedAmount > 0 && invoice.status !== "void") {
    const paidAmount = invoice.paidAmount - row.appliedAmount;
    const status = invoice.dueOn < now.toISOString().slice(0, 10) ? "overdue" : "issued";
    await tx
      .update(invoices)
      .set({ paidAmount, status, paidAt: null, updatedAt: now })
      .where(eq(invoices.id, invoice.id));
    after = { status, paidAmount };
    events.push({
      operator: row.operatorCode,
      resource: "invoices",
      type: "updated",
      ids: [invoice.id],
      ownerUids: owners,
    });
  }
  // The account row before its credits, in the order a bill's issue takes them (billing.ts): a credit
  // is either still open here (cancelled) or already deducted from a bill (owed again, below).
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, row.accountId)).for("update");
  const credits = await tx
    .select({
      id: accountCredits.id,
      amount: accountCredits.amount,
      appliedInvoiceId: accountCredits.appliedInvoiceId,
      cancelledAt: accountCredits.cancelledAt,
    })
    .from(accountCredits)
    .where(eq(accountCredits.sourcePaymentId, row.id))
    .for("update");
  const open = credits.filter((c) => !c.appliedInvoiceId && !c.cancelledAt);
  if (open.length)
    await tx
      .update(accountCredits)
      .set({ cancelledAt: now })
      .where(
        inArray(
          accountCredits.id,
          open.map((c) => c.id),
        ),
      );
  const used = credits.filter((c) => c.appliedInvoiceId);
  const usedAmount = used.reduce((sum, c) => sum + c.amount, 0);
  const [usedOn] = used.length
    ? await tx.select({ number: invoices.number }).from(invoices).where(eq(invoices.id, used[0]!.appliedInvoiceId!))
    : [];
  // What the bank took back: the part this bill had (owed again on it) and the credit nobody used are
  // answered by a charge the reopened bill collects at once; a credit a later bill already deducted is
  // a charge of its own, left unbilled, so the next bill asks for it. Together: the payment's amount.
  if (row.amount - usedAmount > 0) {
    const { entry } = await postLedgerEntry(tx, {
      operatorCode: row.operatorCode,
      accountId: row.accountId,
      kind: "charge",
      amount: row.amount - usedAmount,
      currency: row.currency,
      reason: `Bank payment of bill ${invoice.number} returned by the bank (${returned.failureCode})`,
      actorUid: null,
      actorRole: "system",
      idempotencyKey: paymentReturnedKey(row.id),
      reference: { type: "invoice-payment-returns", id: row.id },
    });
    await tx.insert(invoiceCharges).values({ ledgerEntryId: entry.id, invoiceId: invoice.id }).onConflictDoNothing();
  }
  if (usedAmount > 0) {
    await postLedgerEntry(tx, {
      operatorCode: row.operatorCode,
      accountId: row.accountId,
      kind: "charge",
      amount: usedAmount,
      currency: row.currency,
      reason: `Credit from the returned bank payment of bill ${invoice.number}, already deducted from bill ${usedOn?.number ?? ""}`,
      actorUid: null,
      actorRole: "system",
      idempotencyKey: paymentReturnedCreditKey(row.id),
      reference: { type: "invoice-payment-returns", id: row.id },
    });
  }
  events.push({
    operator: row.operatorCode,
    resource: "ledger-entries",
    type: "created",
    ids: [row.accountId],
    ownerUids: owners,
  });
  await recordAudit(tx, {
    operator: row.operatorCode,
    actorUid: null,
    actorRole: "system",
    action: "invoices.payment-returned",
    targetType: "invoices",
    targetId: invoice.id,
    before: { status: invoice.status, paidAmount: invoice.paidAmount },
    after: { ...after, paymentId, returnCode: returned.failureCode, amount: row.amount, creditOwedAgain: usedAmount },
    reason: "gateway webhook",
    requestId: by.requestId,
  });
  if (bill.ownerUid) {
    const [method] = row.paymentMethodId
      ? await tx
          .select({ last4: paymentMethods.last4, bankName: paymentMethods.bankName })
          .from(paymentMethods)
          .where(eq(paymentMethods.id, row.paymentMethodId))
      : [];
    const said = {
      number: invoice.number,
      paid: row.amount,
      currency: row.currency,
      bankName: method?.bankName ?? "",
      last4: method?.last4 ?? "",
      returnCode: returned.failureCode,
    };
    const notices = [
      // The bill open again: only when the payment had paid some of it (else the credit notice says it all).
      ...(row.appliedAmount > 0 || usedAmount === 0 ? [{ kind: "bill.payment_returned" as const, params: said }] : []),
      ...(usedAmount > 0
        ? [
            {
              kind: "bill.payment_returned_credit_used" as const,
              params: { ...said, owed: usedAmount, creditBill: usedOn?.number ?? "" },
            },
          ]
        : []),
    ];
    for (const notice of notices) {
      const [sent] = await tx
        .insert(notifications)
        .values({
          operatorCode: row.operatorCode,
          recipientUid: bill.ownerUid,
          kind: notice.kind,
          params: notice.params,
          link: `/invoices/show/${invoice.id}`,
        })
        .returning({ id: notifications.id });
      events.push({
        operator: row.operatorCode,
        resource: "notifications",
        type: "created",
        ids: [sent!.id],
        ownerUids: owners,
      });
    }
  }
  return { row: updated!, events };
}
