import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { NotificationKind } from "#resources/notifications";
import type { Address } from "#resources/profile";
import type { Executor } from "../../audit";
import type { ActionContext, ActionHandler, Quote, WriteContext } from "../../engine/types";
import type { NoticeParams } from "../../engine/effects";
import { accounts, addOnPurchases, invoices, lines, numberInventory, orders, plans } from "../../db/schema";
import { badRequest, conflict, unprocessable } from "../../errors";
import { wordsNaming } from "../../i18n/catalogWords";
import { words } from "../../i18n/words";
import { randomDigits } from "../../lib/secretBox";
import { postLedgerEntry } from "../money/ledger";
import { advanceOrder, placeOrder } from "../orders/orderFlow";
import { submitPortIn } from "../porting/submit";
import {
  areaCodeOf,
  checkNumberAvailable,
  claimNumber,
  isOurNumber,
  quarantineNumber,
  takeAnyFreeNumber,
} from "../numberInventory/inventory";
import { quotePlanChange } from "../plans/proration";
import { activateAndCharge, finalSettlement, firstChargeQuote } from "./firstCharge";
import type { LineRow } from "./module";
import { publishLineCountChanged } from "./lineCountEvents";
import { newActivationCode, newEsimIccid } from "./simNumbers";

// The life of a line (issue 28 items 2 and 4): adding one to an account (a new number or one brought
// from another carrier, on an eSIM or a posted SIM), activating a posted SIM, changing the number,
// and cancelling. Billing starts at activation (./firstCharge.ts); a number let go rests in quarantine.

const money = (amount: number, currency: string) => ({ amount, currency });
const today = (d: Date) => d.toISOString().slice(0, 10);

async function tell(
  ctx: WriteContext,
  ownerUid: string | null,
  kind: NotificationKind,
  lineId: string,
  params: NoticeParams,
) {
  if (!ownerUid) return; // nobody holds the account yet: nobody to tell
  await ctx.effects.notify({
    recipientUid: ownerUid,
    kind,
    params: { byRole: ctx.principal.role, ...params },
    link: `/lines/show/${lineId}`,
  });
}

/** Who may take a number someone reserved: the person acting, and the account's holder they act for. */
const pickers = (ctx: WriteContext, ownerUid: string | null) =>
  [ctx.principal.uid, ...(ownerUid ? [ownerUid] : [])] as const;

// ---------------------------------------------------------------------------------------------
// Add a line: accounts/{id}/actions/add-line

type DeliveryAddress = Partial<Address> & Pick<Address, "line1" | "city" | "state" | "zip">;
export type AddLineInput = {
  planId: string;
  number: {
    msisdn?: string;
    portIn?: { msisdn: string; carrierAccount: string; transferPin: string; zip: string };
  };
  sim: { simType: "esim" | "physical"; address?: DeliveryAddress };
};
type AccountRowLike = { id: unknown; ownerUid: string | null; type: unknown; status: unknown; name: unknown };
type AddLineCtx = ActionContext<AccountRowLike, AddLineInput>;

/** The plan asked for: the operator's, on sale, of the account's kind (else 400/422 at planId). */
async function planFor(ctx: AddLineCtx) {
  const [plan] = await ctx.tx
    .select()
    .from(plans)
    .where(and(eq(plans.id, ctx.input.planId), eq(plans.operatorCode, ctx.principal.operator)));
  if (!plan) throw badRequest(words("plans.noSuchPlan"), [{ path: "planId", message: words("plans.noSuchPlanField") }]);
  if (plan.status !== "active")
    throw unprocessable(wordsNaming("plans.notOffered", plan), [
      { path: "planId", message: words("plans.notOfferedField") },
    ]);
  const accountType = ctx.row.type as "prepaid" | "postpaid";
  if (plan.kind !== accountType) {
    const kind = words(`plans.kind.${plan.kind}`);
    const lineKind = words(`plans.kind.${accountType}`);
    throw unprocessable(words("lines.planOfOtherKind", { kind, lineKind }), [
      { path: "planId", message: words("plans.kindChangeField", { kind, lineKind }) },
    ]);
  }
  return plan;
}

/** The cycle day of the account's lines (one bill a month for all of them), else today's (at most 28). */
async function cycleDayFor(tx: Executor, accountId: string, now: Date): Promise<number> {
  const [row] = await tx
    .select({ day: sql<number | null>`min(${lines.cycleDay})::int` })
    .from(lines)
    .where(and(eq(lines.accountId, accountId), ne(lines.status, "terminated")));
  return row?.day ?? Math.min(now.getUTCDate(), 28);
}

/** A port-in's number must not be the operator's already (409 at number.portIn.msisdn). */
async function refuseOwnNumber(ctx: AddLineCtx) {
  const portIn = ctx.input.number.portIn;
  if (!portIn) return;
  // Also a number already on its way in (a retry of this very request: add-line shows its activation
  // code once, so it takes no Idempotency-Key, and the number itself refuses a second line).
  const [moving] = await ctx.tx
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.operatorCode, ctx.principal.operator),
        eq(orders.type, "port_in"),
        inArray(orders.state, ["acknowledged", "in_progress"]),
        sql`${orders.details} -> 'portIn' ->> 'msisdn' = ${portIn.msisdn}`,
      ),
    )
    .limit(1);
  if (moving || (await isOurNumber(ctx.tx, ctx.principal.operator, portIn.msisdn)))
    throw conflict(words("numbers.alreadyOurs"), [
      { path: "number.portIn.msisdn", message: words("numbers.alreadyOursField") },
    ]);
}

/** An eSIM ICCID no line not terminated has (a collision is astronomically rare; try again). */
async function freshEsimIccid(tx: Executor): Promise<string> {
  for (;;) {
    const iccid = newEsimIccid();
    const [taken] = await tx
      .select({ id: lines.id })
      .from(lines)
      .where(and(eq(lines.iccid, iccid), ne(lines.status, "terminated")))
      .limit(1);
    if (!taken) return iccid;
  }
}

export const addLine: ActionHandler<AccountRowLike, AddLineInput> = {
  async run(ctx) {
    const now = new Date();
    const operator = ctx.principal.operator;
    const accountId = ctx.row.id as string;
    const ownerUid = ctx.row.ownerUid;
    const accountType = ctx.row.type as "prepaid" | "postpaid";
    const plan = await planFor(ctx);
    const { portIn, msisdn: picked } = ctx.input.number;
    const esim = ctx.input.sim.simType === "esim";

    // The number: the one picked from the inventory, or a temporary one while the ported number comes.
    let msisdn: string;
    if (portIn) {
      await refuseOwnNumber(ctx);
      const temporary =
        (await takeAnyFreeNumber(ctx.tx, operator, areaCodeOf(portIn.msisdn))) ??
        (await takeAnyFreeNumber(ctx.tx, operator, null));
      if (!temporary)
        throw conflict(words("numbers.noneFreeAtAll"), [
          { path: "number.portIn.msisdn", message: words("numbers.noneFreeField") },
        ]);
      msisdn = temporary;
    } else {
      msisdn = picked!;
      await claimNumber(ctx.tx, operator, msisdn, pickers(ctx, ownerUid), null, "number.msisdn");
    }

    const cycleDay = await cycleDayFor(ctx.tx, accountId, now);
    const iccid = esim ? await freshEsimIccid(ctx.tx) : null;
    const [line] = await ctx.tx
      .insert(lines)
      .values({
        operatorCode: operator,
        accountId,
        msisdn,
        iccid,
        simType: ctx.input.sim.simType,
        planId: plan.id,
        status: "pending",
        cycleDay,
        pukCipher: esim ? ctx.services.secrets.seal(randomDigits(8)) : null,
      })
      .returning({ id: lines.id });
    const lineId = line!.id;
    await ctx.tx
      .update(numberInventory)
      .set({ lineId, updatedAt: now })
      .where(and(eq(numberInventory.operatorCode, operator), eq(numberInventory.msisdn, msisdn)));

    const delivery = esim ? null : { ...ctx.input.sim.address!, line2: ctx.input.sim.address!.line2 || null };
    const newLine = await placeOrder(
      ctx,
      {
        type: "new_line",
        accountId,
        lineId,
        ownerUid,
        details: {
          msisdn,
          planId: plan.id,
          planName: plan.name,
          simType: ctx.input.sim.simType,
          ...(delivery ? { delivery } : {}),
          ...(portIn ? { portIn: true } : {}),
        },
        reason: ctx.reason,
      },
      // An eSIM is live at once; a posted SIM waits until it is activated (activate-sim completes it).
      { complete: esim },
    );

    let charged: { amount: number; currency: string } | null = null;
    if (esim) {
      charged = await activateAndCharge(
        ctx.tx,
        { id: lineId, operatorCode: operator, accountId, accountType, msisdn, cycleDay, plan },
        { uid: ctx.principal.uid, role: ctx.principal.role },
        now,
      );
    }

    let order = newLine;
    if (portIn) {
      // The porting exchange (server/domain/porting) moves the number; the PIN is kept sealed, never in clear.
      order = await placeOrder(
        ctx,
        {
          type: "port_in",
          accountId,
          lineId,
          ownerUid,
          details: {
            portIn: {
              msisdn: portIn.msisdn,
              carrierAccount: portIn.carrierAccount,
              zip: portIn.zip,
              transferPinCipher: ctx.services.secrets.seal(portIn.transferPin),
            },
            temporaryMsisdn: msisdn,
          },
          reason: ctx.reason,
        },
        { complete: false },
      );
      const [placed] = await ctx.tx.select({ timeline: orders.timeline }).from(orders).where(eq(orders.id, order.id));
      await advanceOrder(ctx, { ...order, timeline: placed!.timeline, ownerUid }, "in_progress", "system");
      order = { ...order, state: "in_progress" };
      await submitPortIn(ctx.tx, order.id, ctx.effects);
    }

    await tell(ctx, ownerUid, "line.added", lineId, {
      msisdn,
      planName: plan.name,
      simType: ctx.input.sim.simType,
    });
    ctx.effects.publish({ resource: "lines", type: "created", ids: [lineId], ownerUids: ownerUid ? [ownerUid] : [] });
    // The engine's event covers the account this action ran on; the 360's record counts the line too.
    publishLineCountChanged(ctx.effects, { id: accountId, ownerUid }, ["accounts"]);
    return {
      result: {
        lineId,
        msisdn,
        status: esim ? "active" : "pending",
        simType: ctx.input.sim.simType,
        activationCode: esim ? newActivationCode() : null,
        firstCharge: charged,
      },
      order,
    };
  },

  async preview(ctx): Promise<Quote> {
    const plan = await planFor(ctx);
    const { portIn, msisdn: picked } = ctx.input.number;
    if (portIn) await refuseOwnNumber(ctx);
    else
      await checkNumberAvailable(
        ctx.tx,
        ctx.principal.operator,
        picked!,
        pickers(ctx, ctx.row.ownerUid),
        "number.msisdn",
      );
    const cycleDay = await cycleDayFor(ctx.tx, ctx.row.id as string, new Date());
    const quote = firstChargeQuote(plan.priceAmount, cycleDay);
    const esim = ctx.input.sim.simType === "esim";
    const msisdn = portIn ? portIn.msisdn : picked!;
    return {
      summary: portIn ? "resources.accounts.preview.addLinePortIn" : "resources.accounts.preview.addLine",
      params: { msisdn, plan: plan.name },
      lines: [
        {
          label: "resources.accounts.preview.firstCharge",
          params: { plan: plan.name, days: quote.days, cycleDays: quote.cycleDays },
          amount: money(quote.amount, plan.currency),
        },
        { label: "resources.accounts.preview.noDeposit", amount: money(0, plan.currency) },
        {
          label: "resources.accounts.preview.monthlyFrom",
          params: { date: quote.cycleEnd },
          amount: money(plan.priceAmount, plan.currency),
        },
        {
          label: esim ? "resources.accounts.preview.esimAtOnce" : "resources.accounts.preview.physicalPending",
        },
        ...(portIn ? [{ label: "resources.accounts.preview.temporaryNumber" }] : []),
        ...(ctx.row.type === "postpaid" ? [{ label: "resources.accounts.preview.onNextBill" }] : []),
      ],
      total: money(quote.amount, plan.currency),
    };
  },
};

// ---------------------------------------------------------------------------------------------
// Activate a posted SIM: lines/{id}/actions/activate-sim

type LineCtx<I> = ActionContext<LineRow, I>;

/** The line's plan and the billing facts of the line itself (not in the API record). */
async function billingFacts(tx: Executor, lineRow: LineRow) {
  const [facts] = await tx
    .select({
      operatorCode: lines.operatorCode,
      renewedCycleStart: lines.renewedCycleStart,
      activatedAt: lines.activatedAt,
      createdAt: lines.createdAt,
      planName: plans.name,
      priceAmount: plans.priceAmount,
      currency: plans.currency,
    })
    .from(lines)
    .innerJoin(plans, eq(plans.id, lines.planId))
    .where(eq(lines.id, lineRow.id));
  return facts!;
}

/** The line's orders still waiting of a type (a posted SIM's new_line order, a scheduled cancellation). */
async function waitingOrders(tx: Executor, lineId: string, type: "new_line" | "terminate") {
  return await tx
    .select({ id: orders.id, state: orders.state, timeline: orders.timeline, scheduledFor: orders.scheduledFor })
    .from(orders)
    .where(
      and(eq(orders.lineId, lineId), eq(orders.type, type), inArray(orders.state, ["acknowledged", "in_progress"])),
    );
}

export const activateSim: ActionHandler<LineRow, { iccid: string }> = {
  async run(ctx: LineCtx<{ iccid: string }>) {
    const lineId = ctx.row.id;
    const { iccid } = ctx.input;
    const [taken] = await ctx.tx
      .select({ id: lines.id })
      .from(lines)
      .where(and(eq(lines.iccid, iccid), ne(lines.id, lineId), ne(lines.status, "terminated")))
      .limit(1);
    if (taken) throw conflict(words("lines.simInUse"), [{ path: "iccid", message: words("lines.simInUseField") }]);
    const facts = await billingFacts(ctx.tx, ctx.row);
    await ctx.tx
      .update(lines)
      .set({
        iccid,
        pukCipher: sql`coalesce(${lines.pukCipher}, ${ctx.services.secrets.seal(randomDigits(8))})`,
        updatedAt: new Date(),
      })
      .where(eq(lines.id, lineId));
    const charged = await activateAndCharge(
      ctx.tx,
      {
        id: lineId,
        operatorCode: facts.operatorCode,
        accountId: ctx.row.accountId,
        accountType: ctx.row.accountType,
        msisdn: ctx.row.msisdn,
        cycleDay: ctx.row.cycleDay,
        plan: { name: facts.planName, priceAmount: facts.priceAmount, currency: facts.currency },
      },
      { uid: ctx.principal.uid, role: ctx.principal.role },
    );
    // The posted SIM's order is done; a line with none (an imported one) gets its new_line order now.
    const note = `activated as the SIM ending ${iccid.slice(-4)}`;
    const [waiting] = await waitingOrders(ctx.tx, lineId, "new_line");
    let order;
    if (waiting) {
      let current = { ...waiting, ownerUid: ctx.row.ownerUid };
      if (current.state === "acknowledged") {
        await advanceOrder(ctx, current, "in_progress", "system");
        const [moved] = await waitingOrders(ctx.tx, lineId, "new_line");
        current = { ...moved!, ownerUid: ctx.row.ownerUid };
      }
      await advanceOrder(ctx, current, "completed", ctx.principal.role, note);
      order = { id: waiting.id, type: "new_line", state: "completed" };
    } else {
      order = await placeOrder(
        ctx,
        {
          type: "new_line",
          accountId: ctx.row.accountId,
          lineId,
          ownerUid: ctx.row.ownerUid,
          details: { msisdn: ctx.row.msisdn, simType: ctx.row.simType, iccid },
          reason: ctx.reason,
        },
        { complete: true },
      );
    }
    await tell(ctx, ctx.row.ownerUid, "line.activated", lineId, { msisdn: ctx.row.msisdn });
    return { order, result: { iccid, firstCharge: charged } };
  },
  async preview(ctx) {
    const facts = await billingFacts(ctx.tx, ctx.row);
    const quote = firstChargeQuote(facts.priceAmount, ctx.row.cycleDay);
    return {
      summary: "resources.lines.preview.activateSim",
      params: { msisdn: ctx.row.msisdn, iccid: ctx.input.iccid.slice(-4) },
      lines: [
        {
          label: "resources.accounts.preview.firstCharge",
          params: { plan: facts.planName, days: quote.days, cycleDays: quote.cycleDays },
          amount: money(quote.amount, facts.currency),
        },
      ],
      total: money(quote.amount, facts.currency),
    };
  },
};

// ---------------------------------------------------------------------------------------------
// Change number: lines/{id}/actions/change-number

export const changeNumber: ActionHandler<LineRow, { msisdn: string }> = {
  async run(ctx) {
    const lineId = ctx.row.id;
    const from = ctx.row.msisdn;
    const to = ctx.input.msisdn;
    if (to === from)
      throw conflict(words("numbers.sameNumber"), [{ path: "msisdn", message: words("numbers.sameNumberField") }]);
    await claimNumber(ctx.tx, ctx.principal.operator, to, pickers(ctx, ctx.row.ownerUid), lineId, "msisdn");
    const quarantinedUntil = await quarantineNumber(ctx.tx, ctx.principal.operator, from);
    // A transfer PIN was for the old number: it goes with it.
    await ctx.tx
      .update(lines)
      .set({ msisdn: to, portOutPinHash: null, portOutPinExpiresAt: null, updatedAt: new Date() })
      .where(eq(lines.id, lineId));
    const order = await placeOrder(
      ctx,
      {
        type: "change_number",
        accountId: ctx.row.accountId,
        lineId,
        ownerUid: ctx.row.ownerUid,
        details: { fromMsisdn: from, toMsisdn: to, quarantinedUntil: today(quarantinedUntil) },
        reason: ctx.reason,
      },
      { complete: true },
    );
    await tell(ctx, ctx.row.ownerUid, "line.number_changed", lineId, { msisdn: to, oldMsisdn: from });
    return { order };
  },
  async preview(ctx) {
    const to = ctx.input.msisdn;
    if (to === ctx.row.msisdn)
      throw conflict(words("numbers.sameNumber"), [{ path: "msisdn", message: words("numbers.sameNumberField") }]);
    await checkNumberAvailable(ctx.tx, ctx.principal.operator, to, pickers(ctx, ctx.row.ownerUid), "msisdn");
    return {
      summary: "resources.lines.preview.changeNumber",
      params: { msisdn: ctx.row.msisdn, newMsisdn: to },
      lines: [{ label: "resources.lines.preview.oldNumberQuarantine" }, { label: "resources.lines.preview.noCharge" }],
      total: null,
    };
  },
};

// ---------------------------------------------------------------------------------------------
// Cancel a line: lines/{id}/actions/cancel

type CancelInput = { when: "now" | "cycle-end" };

/** What cancelling would settle, and what else the person should know, in words (the preview and the order's details). */
async function cancellationFacts(tx: Executor, row: LineRow, mode: CancelInput["when"], now = new Date()) {
  const facts = await billingFacts(tx, row);
  const settlement = finalSettlement(
    {
      accountType: row.accountType,
      status: row.status,
      cycleDay: row.cycleDay,
      renewedCycleStart: facts.renewedCycleStart,
      createdAt: facts.createdAt,
      activatedAt: facts.activatedAt,
      priceAmount: facts.priceAmount,
    },
    mode,
    now,
  );
  const [addOns] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(addOnPurchases)
    .where(and(eq(addOnPurchases.lineId, row.id), eq(addOnPurchases.status, "active")));
  const [unpaid] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(invoices)
    .where(and(eq(invoices.accountId, row.accountId), inArray(invoices.status, ["issued", "overdue"])));
  const { cycleEnd } = quotePlanChange(0, 0, row.cycleDay, now);
  return { facts, settlement, addOns: addOns?.n ?? 0, unpaidBills: unpaid?.n ?? 0, cycleEnd };
}

/**
 * Ends a line (at once, or when its scheduled cancellation comes due): the plan settled for the
 * days left or used, add-ons ended, waiting orders dropped, its number to quarantine, its SIM
 * released (the ICCID may go on another line), the line `terminated`. Its usage, orders and bills
 * stay readable. The account's unpaid bills stay due.
 */
export async function terminateLine(
  ctx: Pick<WriteContext, "tx" | "effects"> & { actor: { uid: string | null; role: string } },
  row: LineRow,
  mode: CancelInput["when"],
  now = new Date(),
): Promise<{ amount: number; kind: string; currency: string }> {
  const { tx } = ctx;
  const lineId = row.id;
  const { facts, settlement } = await cancellationFacts(tx, row, mode, now);
  if (settlement.kind !== "none") {
    await postLedgerEntry(tx, {
      operatorCode: facts.operatorCode,
      accountId: row.accountId,
      kind: settlement.kind === "charge" ? "charge" : "adjustment",
      amount: settlement.amount,
      currency: facts.currency,
      reason:
        settlement.kind === "charge"
          ? `${facts.planName}, last ${settlement.days} of ${settlement.cycleDays} days (${row.msisdn}, cancelled)`
          : `${facts.planName}, ${settlement.days} unused days of ${settlement.cycleDays} back (${row.msisdn}, cancelled)`,
      actorUid: ctx.actor.uid,
      actorRole: ctx.actor.role,
      idempotencyKey: `line-cancelled:${lineId}`,
      reference: { type: "line", id: lineId },
    });
  }
  await tx
    .update(addOnPurchases)
    .set({ status: "expired", autoRenew: false, expiresAt: now, updatedAt: now })
    .where(and(eq(addOnPurchases.lineId, lineId), eq(addOnPurchases.status, "active")));
  // What still waited for the line (a plan change next cycle, a SIM in the post) will not happen.
  const waiting = await tx
    .select({ id: orders.id, state: orders.state, timeline: orders.timeline })
    .from(orders)
    .where(and(eq(orders.lineId, lineId), eq(orders.state, "acknowledged"), ne(orders.type, "terminate")));
  for (const order of waiting)
    await advanceOrder(ctx, { ...order, ownerUid: row.ownerUid }, "cancelled", "system", "the line was cancelled");
  await tx
    .update(lines)
    .set({
      status: "terminated",
      suspendReason: null,
      graceEndsOn: null,
      terminatedAt: now,
      portOutPinHash: null,
      portOutPinExpiresAt: null,
      updatedAt: now,
    })
    .where(eq(lines.id, lineId));
  await quarantineNumber(tx, facts.operatorCode, row.msisdn);
  // The account's line count went down: its pages read it again (the line's own event is the caller's).
  publishLineCountChanged(ctx.effects, { id: row.accountId, ownerUid: row.ownerUid });
  return { amount: settlement.amount, kind: settlement.kind, currency: facts.currency };
}

export const cancelLine: ActionHandler<LineRow, CancelInput> = {
  async run(ctx) {
    const lineId = ctx.row.id;
    const [scheduled] = await waitingOrders(ctx.tx, lineId, "terminate");
    if (scheduled)
      throw conflict(words("lines.cancelScheduled", { date: today(scheduled.scheduledFor ?? new Date()) }), [
        { path: "when", message: words("lines.cancelScheduledField") },
      ]);
    const base = {
      type: "terminate" as const,
      accountId: ctx.row.accountId,
      lineId,
      ownerUid: ctx.row.ownerUid,
      reason: ctx.reason,
    };
    if (ctx.input.when === "cycle-end") {
      const { cycleEnd } = quotePlanChange(0, 0, ctx.row.cycleDay, new Date());
      const order = await placeOrder(
        ctx,
        {
          ...base,
          details: { msisdn: ctx.row.msisdn, when: "cycle-end" },
          effective: "next_cycle",
          scheduledFor: new Date(`${cycleEnd}T00:00:00Z`),
        },
        { complete: false },
      );
      await tell(ctx, ctx.row.ownerUid, "line.cancel_scheduled", lineId, {
        msisdn: ctx.row.msisdn,
        date: cycleEnd,
      });
      return { order };
    }
    const settled = await terminateLine(
      { ...ctx, actor: { uid: ctx.principal.uid, role: ctx.principal.role } },
      ctx.row,
      "now",
    );
    const order = await placeOrder(
      ctx,
      { ...base, details: { msisdn: ctx.row.msisdn, when: "now", settlement: settled } },
      { complete: true },
    );
    await tell(ctx, ctx.row.ownerUid, "line.cancelled", lineId, { msisdn: ctx.row.msisdn });
    return { order };
  },
  async preview(ctx) {
    const mode = ctx.input.when;
    const { facts, settlement, addOns, unpaidBills, cycleEnd } = await cancellationFacts(ctx.tx, ctx.row, mode);
    const currency = facts.currency;
    const days = { days: settlement.days, cycleDays: settlement.cycleDays, plan: facts.planName };
    return {
      summary: mode === "now" ? "resources.lines.preview.cancelNow" : "resources.lines.preview.cancelAtCycleEnd",
      params: { msisdn: ctx.row.msisdn, date: cycleEnd },
      lines: [
        settlement.kind === "charge"
          ? { label: "resources.lines.preview.finalCharge", params: days, amount: money(settlement.amount, currency) }
          : settlement.kind === "credit"
            ? {
                label: "resources.lines.preview.finalCredit",
                params: days,
                amount: money(-settlement.amount, currency),
              }
            : { label: "resources.lines.preview.nothingMoreForPlan" },
        addOns > 0
          ? { label: "resources.lines.preview.addOnsEnd", params: { count: addOns } }
          : { label: "resources.lines.preview.noAddOns" },
        { label: "resources.lines.preview.portOutFirst" },
        { label: "resources.lines.preview.numberQuarantine" },
        ...(unpaidBills > 0 ? [{ label: "resources.lines.preview.billStaysDue" }] : []),
      ],
      total: money(settlement.kind === "credit" ? -settlement.amount : settlement.amount, currency),
    };
  },
};

// ---------------------------------------------------------------------------------------------
// Keep a line whose cancellation is scheduled: lines/{id}/actions/keep-line

/** The timeline step of a withdrawn cancellation, in words where notes are shown (src/resources/lines.ts). */
const KEPT_NOTE = "orders.terminate.kept";

/**
 * Withdraws the cancellation scheduled for the end of the cycle: its terminate order ends cancelled
 * (a timeline step saying the line was kept), so the due run finds nothing to do, and the holder is
 * told. The declaration's `when` (cancellationScheduled) refuses a line with none; the check here
 * holds the same inside the transaction.
 */
export const keepLine: ActionHandler<LineRow, Record<string, never>> = {
  async run(ctx) {
    const lineId = ctx.row.id;
    const scheduled = (await waitingOrders(ctx.tx, lineId, "terminate")).filter((o) => o.scheduledFor);
    if (!scheduled.length)
      throw conflict(words("lines.nothingScheduled"), [
        { path: "cancellationScheduled", message: words("lines.nothingScheduledField") },
      ]);
    for (const order of scheduled)
      await advanceOrder(ctx, { ...order, ownerUid: ctx.row.ownerUid }, "cancelled", ctx.principal.role, KEPT_NOTE);
    await tell(ctx, ctx.row.ownerUid, "line.cancel_withdrawn", lineId, {
      msisdn: ctx.row.msisdn,
      date: today(scheduled[0]!.scheduledFor!),
    });
    return { order: { id: scheduled[0]!.id, type: "terminate", state: "cancelled" } };
  },
};

/** The accounts of the operator a cancellation needs to see through (exported for the job). */
export const accountOwner = async (tx: Executor, accountId: string) =>
  (await tx.select({ ownerUid: accounts.ownerUid }).from(accounts).where(eq(accounts.id, accountId)))[0]?.ownerUid ??
  null;
