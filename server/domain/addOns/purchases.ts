import { and, eq, gt } from "drizzle-orm";
import type { Executor } from "../../audit";
import { addOnPurchases, addOns } from "../../db/schema";
import { badRequest, conflict, unprocessable } from "../../errors";
import { wordsNaming } from "../../i18n/catalogWords";
import { words } from "../../i18n/words";
import type { ActionContext, ActionHandler, Quote } from "../../engine/types";
import { postLedgerEntry } from "../money/ledger";
import { placeOrder } from "../orders/orderFlow";
import { liftDataCap } from "../usage/liftCaps";
import type { LineRow } from "../lines/module";

/** The cron job that renews or expires add-ons whose validity has run out. */

const DAY_MS = 86_400_000;
const money = (amount: number, currency: string) => ({ amount, currency });

type BuyInput = { addOnId: string; autoRenew: boolean };

/** The add-on asked for, on sale and of this operator (else 400/422 at `addOnId`). */
async function addOnToBuy(ctx: ActionContext<LineRow, BuyInput>) {
  const [addOn] = await ctx.tx
    .select()
    .from(addOns)
    .where(and(eq(addOns.id, ctx.input.addOnId), eq(addOns.operatorCode, ctx.principal.operator)));
  if (!addOn || (addOn.status === "draft" && ctx.principal.role === "subscriber"))
    throw badRequest(words("addOns.noSuchAddOn"), [{ path: "addOnId", message: words("addOns.noSuchAddOnField") }]);
  if (addOn.status !== "active")
    throw unprocessable(wordsNaming("addOns.notOnSale", addOn), [
      { path: "addOnId", message: words("addOns.notOnSaleField") },
    ]);
  return addOn;
}

/**
 * lines/{id}/actions/buy-add-on: charges the add-on's price through the ledger (prepaid: refused
 * with 422 and the shortfall when the balance is short; postpaid: an unbilled charge), places a
 * completed add_on order, and adds its data to the line's meter until it expires (the expiry job
 * renews it while `autoRenew` holds). Idempotency-Key on the request replays the first answer.
 */
export const buyAddOn: ActionHandler<LineRow, BuyInput> = {
  async run(ctx) {
    const addOn = await addOnToBuy(ctx);
    const now = new Date();
    const expiresAt = new Date(now.getTime() + addOn.validityDays * DAY_MS);
    const details = {
      addOnId: addOn.id,
      addOnName: addOn.name,
      addOnCode: addOn.code,
      price: addOn.priceAmount,
      currency: addOn.currency,
      dataMb: addOn.dataMb,
      autoRenew: ctx.input.autoRenew,
      expiresAt: expiresAt.toISOString(),
    };
    const order = await placeOrder(
      ctx,
      {
        type: "add_on",
        accountId: ctx.row.accountId,
        lineId: ctx.row.id,
        ownerUid: ctx.row.ownerUid,
        details,
        reason: ctx.reason,
      },
      { complete: true },
    );
    if (addOn.priceAmount > 0) {
      await postLedgerEntry(ctx.tx, {
        operatorCode: ctx.principal.operator,
        accountId: ctx.row.accountId,
        kind: "charge",
        amount: addOn.priceAmount,
        currency: addOn.currency,
        reason: `Add-on ${addOn.name} on ${ctx.row.msisdn}`,
        actorUid: ctx.principal.uid,
        actorRole: ctx.principal.role,
        idempotencyKey: `add-on:${order.id}`,
        reference: { type: "order", id: order.id },
      });
      ctx.effects.publish({
        resource: "ledger-entries",
        type: "created",
        ids: [ctx.row.accountId],
        ownerUids: ctx.row.ownerUid ? [ctx.row.ownerUid] : [],
      });
    }
    const [purchase] = await ctx.tx
      .insert(addOnPurchases)
      .values({
        operatorCode: ctx.principal.operator,
        lineId: ctx.row.id,
        accountId: ctx.row.accountId,
        addOnId: addOn.id,
        orderId: order.id,
        dataMb: addOn.dataMb,
        autoRenew: ctx.input.autoRenew,
        startsAt: now,
        expiresAt,
      })
      .returning({ id: addOnPurchases.id });
    // Its data counts first: a line barred at its data allowance goes on (issue 24).
    if (addOn.dataMb > 0) await liftDataCap(ctx.tx, ctx.row.id);
    ctx.effects.publish({
      resource: "meters",
      type: "updated",
      ids: [ctx.row.id],
      ownerUids: ctx.row.ownerUid ? [ctx.row.ownerUid] : [],
    });
    if (ctx.row.ownerUid) {
      await ctx.effects.notify({
        recipientUid: ctx.row.ownerUid,
        kind: "add_on.purchased",
        params: { msisdn: ctx.row.msisdn, byRole: ctx.principal.role, addOnName: addOn.name },
        link: `/lines/show/${ctx.row.id}`,
      });
    }
    return { order, result: { addOnPurchaseId: purchase!.id, expiresAt: expiresAt.toISOString() } };
  },

  async preview(ctx): Promise<Quote> {
    const addOn = await addOnToBuy(ctx);
    const expiresAt = new Date(Date.now() + addOn.validityDays * DAY_MS);
    const params = { addOn: addOn.name, days: addOn.validityDays };
    return {
      summary: "resources.lines.preview.buyAddOn",
      params: { msisdn: ctx.row.msisdn, addOn: addOn.name, date: expiresAt.toISOString().slice(0, 10) },
      lines: [
        { label: "resources.lines.preview.addOnPrice", params, amount: money(addOn.priceAmount, addOn.currency) },
        {
          label: ctx.input.autoRenew ? "resources.lines.preview.autoRenews" : "resources.lines.preview.noRenewal",
          params,
        },
      ],
      total: money(addOn.priceAmount, addOn.currency),
    };
  },
};

/** lines/{id}/actions/stop-add-on-renewal: the add-on stays until it expires, then is not bought again. */
export const stopAddOnRenewal: ActionHandler<LineRow, { addOnPurchaseId: string }> = {
  async run(ctx) {
    const [purchase] = await ctx.tx
      .select()
      .from(addOnPurchases)
      .where(and(eq(addOnPurchases.id, ctx.input.addOnPurchaseId), eq(addOnPurchases.lineId, ctx.row.id)))
      .for("update");
    if (!purchase)
      throw badRequest(words("addOns.lineHasNoSuch"), [
        { path: "addOnPurchaseId", message: words("addOns.lineHasNoSuchField") },
      ]);
    if (purchase.status !== "active")
      throw conflict(words("addOns.expired"), [{ path: "addOnPurchaseId", message: words("addOns.expiredField") }]);
    if (!purchase.autoRenew)
      throw conflict(words("addOns.doesNotRenew"), [
        { path: "addOnPurchaseId", message: words("addOns.doesNotRenewField") },
      ]);
    await ctx.tx
      .update(addOnPurchases)
      .set({ autoRenew: false, updatedAt: new Date() })
      .where(eq(addOnPurchases.id, purchase.id));
    return { result: { addOnPurchaseId: purchase.id, expiresAt: purchase.expiresAt.toISOString() } };
  },
};

/** The add-ons of lines counting now, as the API shows them (the line page lists them). */
export async function activeAddOnsOf(db: Executor, lineId: string, now = new Date()) {
  const rows = await db
    .select({
      purchase: addOnPurchases,
      name: addOns.name,
      translations: addOns.translations,
      kind: addOns.kind,
      roamingZone: addOns.roamingZone,
    })
    .from(addOnPurchases)
    .innerJoin(addOns, eq(addOnPurchases.addOnId, addOns.id))
    .where(
      and(eq(addOnPurchases.lineId, lineId), eq(addOnPurchases.status, "active"), gt(addOnPurchases.expiresAt, now)),
    )
    .orderBy(addOnPurchases.expiresAt);
  return rows.map((r) => ({
    id: r.purchase.id,
    addOnId: r.purchase.addOnId,
    name: r.name,
    translations: r.translations,
    kind: r.kind,
    roamingZone: r.roamingZone,
    dataMb: r.purchase.dataMb,
    autoRenew: r.purchase.autoRenew,
    startsAt: r.purchase.startsAt.toISOString(),
    expiresAt: r.purchase.expiresAt.toISOString(),
  }));
}
