import { and, asc, eq, inArray, isNotNull, lte } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accounts, invoices, paymentMethods } from "../../db/schema";
import type { ActionHandler } from "../../engine/types";
import { ProblemError, unprocessable } from "../../errors";
import { words } from "../../i18n/words";
import type { PaymentGateways } from "../../payments/gateway";
import type { ResourceEvent } from "#resources/events";
import { payInvoice } from "./payInvoice";

/** How long a bill taken by one autopay round is left alone by the others (a charge that times out is settled by its webhook). */
const LEASE_MS = 60_000;
const BATCH = 20;

type AccountRowLike = { id: string; ownerUid: string | null; type: string };

/**
 * accounts/{id}/actions/set-autopay `{enabled, paymentMethodId?}`: a postpaid account's new bills are
 * paid on issue with this saved card of the holder (their default card when none is named); off
 * clears it. A card that is not the holder's is refused with 422 naming it.
 */
export const setAutopay: ActionHandler<AccountRowLike, { enabled: boolean; paymentMethodId?: string }> = {
  async run(ctx) {
    let methodId: string | null = null;
    if (ctx.input.enabled) {
      const owner = ctx.row.ownerUid ?? "";
      const mine = and(eq(paymentMethods.ownerUid, owner), eq(paymentMethods.operatorCode, ctx.principal.operator));
      const [card] = await ctx.tx
        .select({ id: paymentMethods.id })
        .from(paymentMethods)
        .where(
          ctx.input.paymentMethodId
            ? and(mine, eq(paymentMethods.id, ctx.input.paymentMethodId))
            : and(mine, eq(paymentMethods.isDefault, true)),
        )
        .limit(1);
      if (!card) {
        const named = Boolean(ctx.input.paymentMethodId);
        throw unprocessable(words(named ? "payments.noSuchSavedCard" : "invoices.autopayNeedsCard"), [
          {
            path: "paymentMethodId",
            message: words(named ? "payments.notHoldersCard" : "invoices.autopayNeedsCardField"),
          },
        ]);
      }
      methodId = card.id;
    }
    await ctx.tx
      .update(accounts)
      .set({ autopayPaymentMethodId: methodId, updatedAt: new Date() })
      .where(eq(accounts.id, ctx.row.id));
  },
};

/**
 * One autopay round: takes the open bills whose try is due (SKIP LOCKED, leased so several instances
 * share the work) and pays each with the account's autopay card through the operator's gateway
 * (./payInvoice.ts). A failure is notified and the next try scheduled on the backoff by the
 * settlement (./settle.ts); a success clears the schedule. Answers the live events to send.
 */
export async function runAutopay(
  db: Db,
  gateways: PaymentGateways | undefined,
  options: { now?: Date; log?: { warn(obj: unknown, msg: string): void }; billPaymentGateway?: string } = {},
) {
  const now = options.now ?? new Date();
  const log = options.log ?? { warn: (obj: unknown, msg: string) => console.warn(msg, obj) };
  const taken = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: invoices.id })
      .from(invoices)
      .innerJoin(accounts, eq(accounts.id, invoices.accountId))
      .where(
        and(
          inArray(invoices.status, ["issued", "overdue"]),
          lte(invoices.autopayNextAt, now),
          isNotNull(accounts.autopayPaymentMethodId),
        ),
      )
      .orderBy(asc(invoices.autopayNextAt))
      .limit(BATCH)
      .for("update", { of: invoices, skipLocked: true });
    if (!due.length) return [];
    await tx
      .update(invoices)
      .set({ autopayNextAt: new Date(now.getTime() + LEASE_MS) })
      .where(
        inArray(
          invoices.id,
          due.map((d) => d.id),
        ),
      );
    return tx
      .select({
        invoiceId: invoices.id,
        operatorCode: invoices.operatorCode,
        ownerUid: accounts.ownerUid,
        methodId: accounts.autopayPaymentMethodId,
      })
      .from(invoices)
      .innerJoin(accounts, eq(accounts.id, invoices.accountId))
      .where(
        inArray(
          invoices.id,
          due.map((d) => d.id),
        ),
      );
  });

  const events: Omit<ResourceEvent, "at">[] = [];
  const results: { invoiceId: string; status: string }[] = [];
  for (const bill of taken) {
    // The bill-payment gateway (BILL_PAYMENT_GATEWAY; the local default "sandbox"), not the top-up setting.
    const gateway = gateways?.[options.billPaymentGateway ?? "sandbox"];
    if (!gateway || !bill.methodId) {
      // No card gateway (or autopay switched off since): autopay stops for this bill.
      await db.update(invoices).set({ autopayNextAt: null }).where(eq(invoices.id, bill.invoiceId));
      results.push({ invoiceId: bill.invoiceId, status: "skipped" });
      continue;
    }
    try {
      const paid = await payInvoice(db, gateway, {
        invoiceId: bill.invoiceId,
        ownerUid: bill.ownerUid,
        paymentMethodId: bill.methodId,
        via: "autopay",
        actorUid: "system:autopay",
        requestId: null,
        log: log as never,
      });
      events.push(...paid.events);
      results.push({ invoiceId: bill.invoiceId, status: paid.payment.status });
    } catch (error) {
      // 409: a payment of the bill still waits for its webhook (the lease brings it back later); else the card is gone: stop.
      if (!(error instanceof ProblemError && error.status === 409)) {
        log.warn({ err: error, invoiceId: bill.invoiceId }, "autopay could not charge the bill");
        await db.update(invoices).set({ autopayNextAt: null }).where(eq(invoices.id, bill.invoiceId));
      }
      results.push({ invoiceId: bill.invoiceId, status: "error" });
    }
  }
  return { results, events };
}
