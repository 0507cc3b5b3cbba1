import { and, eq, gt, lte } from "drizzle-orm";
import type { ResourceEvent } from "#resources/events";
import type { OrderStep } from "#resources/orders";
import type { Db } from "../../db/client";
import type { Executor } from "../../audit";
import { accounts, addOnPurchases, addOns, lines, notifications, orders } from "../../db/schema";
import { badRequest, conflict, ProblemError, unprocessable } from "../../errors";
import { wordsNaming } from "../../i18n/catalogWords";
import { words } from "../../i18n/words";
import type { ActionContext, ActionHandler, Quote } from "../../engine/types";
import type { EventBus } from "../../live/eventBus";
import { postLedgerEntry } from "../money/ledger";
import { placeOrder } from "../orders/orderFlow";
import { liftDataCap } from "../usage/liftCaps";
import type { LineRow } from "../lines/module";
import { inAccountRange, type AccountRange } from "../billingRuns/accountRanges";

/** The cron job that renews or expires add-ons whose validity has run out. */
export const ADD_ON_EXPIRY_JOB = "add-ons.expire-and-renew";

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
        accountId: ctx.row.accountId as string,
        lineId: ctx.row.id as string,
        ownerUid: ctx.row.ownerUid,
        details,
        reason: ctx.reason,
      },
      { complete: true },
    );
    if (addOn.priceAmount > 0) {
      await postLedgerEntry(ctx.tx, {
        operatorCode: ctx.principal.operator,
        accountId: ctx.row.accountId as string,
        kind: "charge",
        amount: addOn.priceAmount,
        currency: addOn.currency,
        reason: `Add-on ${addOn.name} on ${ctx.row.msisdn as string}`,
        actorUid: ctx.principal.uid,
        actorRole: ctx.principal.role,
        idempotencyKey: `add-on:${order.id}`,
        reference: { type: "order", id: order.id },
      });
      ctx.effects.publish({
        resource: "ledger-entries",
        type: "created",
        ids: [ctx.row.accountId as string],
        ownerUids: ctx.row.ownerUid ? [ctx.row.ownerUid] : [],
      });
    }
    const [purchase] = await ctx.tx
      .insert(addOnPurchases)
      .values({
        operatorCode: ctx.principal.operator,
        lineId: ctx.row.id as string,
        accountId: ctx.row.accountId as string,
        addOnId: addOn.id,
        orderId: order.id,
        dataMb: addOn.dataMb,
        autoRenew: ctx.input.autoRenew,
        startsAt: now,
        expiresAt,
      })
      .returning({ id: addOnPurchases.id });
    // Its data counts first: a line barred at its data allowance goes on (issue 24).
    if (addOn.dataMb > 0) await liftDataCap(ctx.tx, ctx.row.id as string);
    ctx.effects.publish({
      resource: "meters",
      type: "updated",
      ids: [ctx.row.id as string],
      ownerUids: ctx.row.ownerUid ? [ctx.row.ownerUid] : [],
    });
    if (ctx.row.ownerUid) {
      await ctx.effects.notify({
        recipientUid: ctx.row.ownerUid,
        kind: "add_on.purchased",
        params: { msisdn: ctx.row.msisdn as string, byRole: ctx.principal.role, addOnName: addOn.name },
        link: `/lines/show/${ctx.row.id as string}`,
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
      params: { msisdn: ctx.row.msisdn as string, addOn: addOn.name, date: expiresAt.toISOString().slice(0, 10) },
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
      .where(and(eq(addOnPurchases.id, ctx.input.addOnPurchaseId), eq(addOnPurchases.lineId, ctx.row.id as string)))
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

/**
 * Renews or expires every active add-on whose validity has run out, one per transaction, locked
 * with SKIP LOCKED so two instances never take the same one (the table is the durable schedule,
 * the job its clock). Renewal charges again through the ledger (idempotent per period) and
 * places a completed add_on order; a prepaid balance that is short, a retired add-on or renewal
 * turned off lets it expire. The holder is told either way. Returns how many were handled.
 */
export async function runAddOnExpiries(
  db: Db,
  events: Pick<EventBus, "publish">,
  now = new Date(),
  /** `accounts`: only the add-ons of accounts in this slice of ids (a part of the daily job). */
  options: { operatorCode?: string; accounts?: AccountRange } = {},
): Promise<number> {
  let done = 0;
  for (;;) {
    const pending: ResourceEvent[] = [];
    const ran = await db.transaction(async (tx) => {
      const [due] = await tx
        .select({
          purchase: addOnPurchases,
          ownerUid: accounts.ownerUid,
          msisdn: lines.msisdn,
          lineStatus: lines.status,
          suspendReason: lines.suspendReason,
        })
        .from(addOnPurchases)
        .innerJoin(accounts, eq(addOnPurchases.accountId, accounts.id))
        .innerJoin(lines, eq(addOnPurchases.lineId, lines.id))
        .where(
          and(
            eq(addOnPurchases.status, "active"),
            lte(addOnPurchases.expiresAt, now),
            options.operatorCode ? eq(addOnPurchases.operatorCode, options.operatorCode) : undefined,
            inAccountRange(addOnPurchases.accountId, options.accounts),
          ),
        )
        .orderBy(addOnPurchases.expiresAt)
        .limit(1)
        .for("update", { of: addOnPurchases, skipLocked: true });
      if (!due) return false;
      const { purchase, ownerUid, msisdn } = due;
      const operator = purchase.operatorCode;
      const [addOn] = await tx.select().from(addOns).where(eq(addOns.id, purchase.addOnId));
      const publish = (event: Omit<ResourceEvent, "operator" | "at">) =>
        pending.push({ ...event, operator, at: new Date().toISOString() });
      const notify = async (kind: "add_on.renewed" | "add_on.expired") => {
        if (!ownerUid) return;
        const [row] = await tx
          .insert(notifications)
          .values({
            operatorCode: operator,
            recipientUid: ownerUid,
            kind,
            params: { msisdn, addOnName: addOn!.name },
            link: `/lines/show/${purchase.lineId}`,
          })
          .returning({ id: notifications.id });
        publish({ resource: "notifications", type: "created", ids: [row!.id], ownerUids: [ownerUid] });
      };
      const owners = ownerUid ? [ownerUid] : [];

      let renewed = false;
      // A prepaid line whose plan did not renew (in grace, or suspended after it) renews no add-on: it expires.
      const planUnpaid =
        due.lineStatus === "grace" || (due.lineStatus === "suspended" && due.suspendReason === "non_payment");
      if (purchase.autoRenew && addOn!.status === "active" && !planUnpaid) {
        const period = purchase.renewals + 1;
        const expiresAt = new Date(purchase.expiresAt.getTime() + addOn!.validityDays * DAY_MS);
        const step = (state: "acknowledged" | "in_progress" | "completed"): OrderStep => ({
          state,
          at: new Date().toISOString(),
          byRole: "system",
          note: state === "acknowledged" ? "automatic renewal" : null,
        });
        try {
          if (addOn!.priceAmount > 0) {
            await postLedgerEntry(tx, {
              operatorCode: operator,
              accountId: purchase.accountId,
              kind: "charge",
              amount: addOn!.priceAmount,
              currency: addOn!.currency,
              reason: `Renewal of add-on ${addOn!.name} on ${msisdn}`,
              actorUid: null,
              actorRole: "system",
              idempotencyKey: `add-on-renewal:${purchase.id}:${period}`,
              reference: { type: "add_on_purchase", id: purchase.id },
            });
          }
          renewed = true;
        } catch (error) {
          // The balance cannot cover it (the ledger refused before writing anything): it expires instead.
          if (!(error instanceof ProblemError) || error.status !== 422) throw error;
        }
        if (renewed) {
          const [first] = await tx
            .select({ role: orders.requestedByRole })
            .from(orders)
            .where(eq(orders.id, purchase.orderId));
          const [order] = await tx
            .insert(orders)
            .values({
              operatorCode: operator,
              accountId: purchase.accountId,
              lineId: purchase.lineId,
              type: "add_on",
              state: "completed",
              details: {
                addOnId: addOn!.id,
                addOnName: addOn!.name,
                price: addOn!.priceAmount,
                currency: addOn!.currency,
                dataMb: addOn!.dataMb,
                renewalOf: purchase.id,
                period,
                expiresAt: expiresAt.toISOString(),
              },
              timeline: [step("acknowledged"), step("in_progress"), step("completed")],
              requestedBy: "system",
              // Asked for by whoever turned auto-renew on when buying.
              requestedByRole: first!.role,
              reason: "automatic renewal",
            })
            .returning({ id: orders.id });
          await tx
            .update(addOnPurchases)
            .set({
              startsAt: purchase.expiresAt,
              expiresAt,
              renewals: period,
              dataMb: addOn!.dataMb,
              orderId: order!.id,
              updatedAt: new Date(),
            })
            .where(eq(addOnPurchases.id, purchase.id));
          publish({ resource: "orders", type: "created", ids: [order!.id], ownerUids: owners });
        }
      }
      if (!renewed)
        await tx
          .update(addOnPurchases)
          .set({ status: "expired", updatedAt: new Date() })
          .where(eq(addOnPurchases.id, purchase.id));
      await notify(renewed ? "add_on.renewed" : "add_on.expired");
      publish({ resource: "meters", type: "updated", ids: [purchase.lineId], ownerUids: owners });
      return true;
    });
    for (const event of pending) await events.publish(event).catch(() => undefined);
    if (!ran) return done;
    done++;
  }
}
