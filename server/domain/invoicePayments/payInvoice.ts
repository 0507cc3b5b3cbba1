import { and, eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client";
import { invoicePayments, invoices, paymentMethods } from "../../db/schema";
import { conflict, unprocessable } from "../../errors";
import type { PaymentGateway, ChargeResult } from "../../payments/gateway";
import { GatewayRefusal } from "../../payments/gateway";
import { paymentWaitingFor, settleInvoicePayment, type InvoicePaymentRow } from "./settle";
import type { ResourceEvent } from "../../../src/resources/events";

export interface PayInvoiceInput {
  invoiceId: string;
  /** The account's holder: the saved card must be theirs. */
  ownerUid: string | null;
  paymentMethodId: string;
  via: "manual" | "autopay";
  actorUid: string;
  requestId: string | null;
  /** The client's Idempotency-Key: a payment already written under it is answered or charged again with its own gateway key, never written twice. */
  idempotencyKey?: string;
  log: Pick<FastifyBaseLogger, "warn">;
}

/**
 * Pays one open bill with a saved card of its holder, through the operator's gateway, the way a
 * card top-up is charged (../topUps/routes.ts): a payment row is written `created` in a first
 * transaction (the bill locked, one pending payment per bill), the gateway is called outside any
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
export async function payInvoice(db: Db, gateway: PaymentGateway, input: PayInvoiceInput): Promise<{ payment: InvoicePaymentRow; last4: string; events: Omit<ResourceEvent, "at">[] }> {
  const [card] = await db
    .select({ gatewayMethodId: paymentMethods.gatewayMethodId, last4: paymentMethods.last4, brand: paymentMethods.brand })
    .from(paymentMethods)
    .where(and(eq(paymentMethods.id, input.paymentMethodId), eq(paymentMethods.ownerUid, input.ownerUid ?? ""), eq(paymentMethods.gateway, gateway.name)));
  if (!card) throw unprocessable("No such saved card of this account's holder.", [{ path: "paymentMethodId", message: "not a saved card of the account's holder" }]);

  const key = input.idempotencyKey;
  const created = await db.transaction(async (tx) => {
    const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, input.invoiceId)).for("update");
    if (!invoice) throw conflict("The bill is gone.");
    if (key) {
      // The bill's lock orders this look-up with any insert under the same key.
      const [existing] = await tx
        .select()
        .from(invoicePayments)
        .where(and(eq(invoicePayments.invoiceId, invoice.id), eq(invoicePayments.createdBy, input.actorUid), eq(invoicePayments.idempotencyKey, key)));
      if (existing) {
        // Reachable only once the key's reservation is gone (kept 24 h): the request hash no longer guards it.
        if (existing.paymentMethodId !== null && existing.paymentMethodId !== input.paymentMethodId) {
          throw unprocessable("This Idempotency-Key was already used for a different payment; use a new key.", [{ path: "idempotency-key", message: "already used for a different request" }]);
        }
        return existing;
      }
    }
    if (invoice.status !== "issued" && invoice.status !== "overdue") {
      throw conflict(`This bill is ${invoice.status}: only an issued or overdue bill is paid.`, [{ path: "status", message: `is ${invoice.status}` }]);
    }
    if (await paymentWaitingFor(tx, invoice.id)) throw conflict("A payment of this bill is still waiting for the card gateway's answer; try again in a moment.", [{ path: "status", message: "a payment is in progress" }]);
    const [row] = await tx
      .insert(invoicePayments)
      .values({
        operatorCode: invoice.operatorCode,
        invoiceId: invoice.id,
        accountId: invoice.accountId,
        amount: invoice.totalAmount,
        currency: invoice.currency,
        via: input.via,
        gateway: gateway.name,
        paymentMethodId: input.paymentMethodId,
        createdBy: input.actorUid,
        idempotencyKey: key ?? null,
      })
      .returning();
    return row!;
  });

  // Settled already (by its first try's answer or by the webhook): answered as it stands, nothing charged.
  if (created.status !== "created") return { payment: created, last4: card.last4, events: [] };

  let result: ChargeResult;
  try {
    result = await gateway.charge({ amount: created.amount, currency: created.currency, source: card.gatewayMethodId, reference: created.id, idempotencyKey: `invoice-payment:${created.id}` });
  } catch (error) {
    if (!(error instanceof GatewayRefusal)) input.log.warn({ err: error, paymentId: created.id }, "card gateway did not take the bill payment");
    result = { outcome: "failed", chargeId: null, failureCode: error instanceof GatewayRefusal ? error.code : "gateway_error" };
  }
  if (result.outcome === "pending") return { payment: created, last4: card.last4, events: [] };
  const settled = await db.transaction((tx) => settleInvoicePayment(tx, created.id, result as Exclude<ChargeResult, { outcome: "pending" }>, { via: "charge", requestId: input.requestId }));
  return { payment: settled!.row, last4: card.last4, events: settled!.events };
}
