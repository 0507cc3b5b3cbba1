import { and, eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client";
import { invoicePayments, invoices, paymentMethods } from "../../db/schema";
import { badRequest, conflict, unprocessable } from "../../errors";
import { words } from "../../i18n/words";
import type { PaymentGateway, ChargeResult } from "../../payments/gateway";
import { GatewayRefusal } from "../../payments/gateway";
import { settleInvoicePayment, type InvoicePaymentRow } from "./settle";
import type { ResourceEvent } from "#resources/events";

export interface PayInvoiceInput {
  invoiceId: string;
  /** The account's holder: the saved card must be theirs. */
  ownerUid: string | null;
  paymentMethodId: string;
  /** Part of the bill (integer minor units, at most what is due); absent: all that is still to pay. */
  amount?: number;
  via: "manual" | "autopay";
  actorUid: string;
  requestId: string | null;
  /** The client's Idempotency-Key: a payment already written under it is answered or charged again with its own gateway key, never written twice. */
  idempotencyKey?: string;
  log: Pick<FastifyBaseLogger, "warn">;
}

/**
 * Pays one open bill, or part of it, with a saved card or bank account of its holder, through the
 * bill-payment gateway, the way a card top-up is charged (../topUps/routes.ts): a payment row is
 * written `created` in a first transaction (the bill locked; it may pay at most what is due less what
 * payments still on their way may pay, so racing payments never pay a bill twice), the gateway is called outside any
 * transaction with the payment's own key, and its answer settles the payment in a second one
 * (./settle.ts). When the gateway does not answer in time, the payment stays `created` and the signed
 * webhook settles it. Answers the payment as it stands (with the card's last 4) and the live events.
 *
 * With the client's Idempotency-Key, the key is stored on the payment in the transaction that writes
 * it, so a retry whose first try died after the charge finds it (before the bill's state is checked:
 * the webhook may have paid the bill since) instead of writing a new one: a settled payment is
 * answered as it stands; a `created` one is charged again under the same gateway key (the gateway
 * answers the first charge's result, charging nothing) and settled as usual.
 */
export async function payInvoice(
  db: Db,
  gateway: PaymentGateway,
  input: PayInvoiceInput,
): Promise<{
  payment: InvoicePaymentRow;
  last4: string;
  methodType: "card" | "bank_account";
  events: Omit<ResourceEvent, "at">[];
}> {
  const [card] = await db
    .select({
      gatewayMethodId: paymentMethods.gatewayMethodId,
      last4: paymentMethods.last4,
      brand: paymentMethods.brand,
      type: paymentMethods.type,
    })
    .from(paymentMethods)
    .where(
      and(
        eq(paymentMethods.id, input.paymentMethodId),
        eq(paymentMethods.ownerUid, input.ownerUid ?? ""),
        eq(paymentMethods.gateway, gateway.name),
      ),
    );
  if (!card)
    throw unprocessable(words("invoices.noSuchSavedMethod"), [
      { path: "paymentMethodId", message: words("invoices.noSuchSavedMethodField") },
    ]);

  const key = input.idempotencyKey;
  const created = await db.transaction(async (tx) => {
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, input.invoiceId)).for("update");
    if (!invoice) throw conflict(words("invoices.gone"));
    if (key) {
      // The bill's lock orders this look-up with any insert under the same key.
      const [existing] = await tx
        .select()
        .from(invoicePayments)
        .where(
          and(
            eq(invoicePayments.invoiceId, invoice.id),
            eq(invoicePayments.createdBy, input.actorUid),
            eq(invoicePayments.idempotencyKey, key),
          ),
        );
      if (existing) {
        // Reachable only once the key's reservation is gone (kept 24 h): the request hash no longer guards it.
        if (
          (existing.paymentMethodId !== null && existing.paymentMethodId !== input.paymentMethodId) ||
          (input.amount !== undefined && input.amount !== existing.amount)
        ) {
          throw unprocessable(words("invoices.paymentKeyReused"), [
            { path: "idempotency-key", message: words("payments.keyUsedField") },
          ]);
        }
        return existing;
      }
    }
    if (invoice.status !== "issued" && invoice.status !== "overdue") {
      throw conflict(words(`invoices.notPayable.${invoice.status}`), [
        { path: "status", message: words(`invoices.notPayableField.${invoice.status}`) },
      ]);
    }
    // What is due, less what payments still on their way may pay: a new payment never pays more.
    const due = invoice.totalAmount - invoice.paidAmount;
    const [{ pending }] = (await tx
      .select({ pending: sql<number>`coalesce(sum(${invoicePayments.amount}), 0)::int` })
      .from(invoicePayments)
      .where(and(eq(invoicePayments.invoiceId, invoice.id), eq(invoicePayments.status, "created")))) as [
      { pending: number },
    ];
    const payable = due - Number(pending);
    // Amounts are words' money: each reader sees them as their language writes amounts.
    const money = (amount: number) => ({ amount, currency: invoice.currency });
    if (input.amount !== undefined && input.amount > due)
      throw badRequest(words("invoices.atMostDue", { due: money(due) }), [
        { path: "amount", message: words("invoices.atMostDueField", { due: money(due) }) },
      ]);
    if (payable <= 0)
      throw conflict(words("invoices.paymentOnItsWay", { pending: money(Number(pending)) }), [
        { path: "status", message: words("invoices.paymentInProgress") },
      ]);
    if (input.amount !== undefined && input.amount > payable) {
      const onItsWay = { pending: money(Number(pending)), payable: money(payable) };
      throw conflict(words("invoices.atMostWhileOnItsWay", onItsWay), [
        { path: "amount", message: words("invoices.atMostWhileOnItsWayField", onItsWay) },
      ]);
    }
    const [row] = await tx
      .insert(invoicePayments)
      .values({
        operatorCode: invoice.operatorCode,
        invoiceId: invoice.id,
        accountId: invoice.accountId,
        amount: input.amount ?? payable,
        currency: invoice.currency,
        via: input.via,
        methodType: card.type,
        gateway: gateway.name,
        paymentMethodId: input.paymentMethodId,
        createdBy: input.actorUid,
        idempotencyKey: key ?? null,
      })
      .returning();
    return row!;
  });

  // Settled already (by its first try's answer or by the webhook): answered as it stands, nothing charged.
  if (created.status !== "created") return { payment: created, last4: card.last4, methodType: card.type, events: [] };

  let result: ChargeResult;
  try {
    result = await gateway.charge({
      amount: created.amount,
      currency: created.currency,
      source: card.gatewayMethodId,
      reference: created.id,
      idempotencyKey: `invoice-payment:${created.id}`,
    });
  } catch (error) {
    if (!(error instanceof GatewayRefusal))
      input.log.warn({ err: error, paymentId: created.id }, "card gateway did not take the bill payment");
    result = {
      outcome: "failed",
      chargeId: null,
      failureCode: error instanceof GatewayRefusal ? error.code : "gateway_error",
    };
  }
  if (result.outcome === "pending") return { payment: created, last4: card.last4, methodType: card.type, events: [] };
  const settled = await db.transaction((tx) =>
    settleInvoicePayment(tx, created.id, result, {
      via: "charge",
      requestId: input.requestId,
    }),
  );
  return { payment: settled!.row, last4: card.last4, methodType: card.type, events: settled!.events };
}
