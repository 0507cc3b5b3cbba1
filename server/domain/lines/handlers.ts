import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { NotificationKind } from "#resources/notifications";
import type { Address } from "#resources/profile";
import type { AccountChange } from "#resources/accountAlerts";
import type { Executor } from "../../audit";
import type { ActionContext, ActionHandler } from "../../engine/types";
import type { NoticeParams } from "../../engine/effects";
import { lines, orders } from "../../db/schema";
import { conflict, unprocessable } from "../../errors";
import { words } from "../../i18n/words";
import { hashSecret, randomDigits } from "../../lib/secretBox";
import { advanceOrder, placeOrder } from "../orders/orderFlow";
import type { LineRow } from "./module";
import { newActivationCode, newEsimIccid } from "./simNumbers";
import { checkIdDocument } from "../files/idDocuments";
import { alertAccountChange } from "../accountAlerts/alerts";

type LineContext<I = Record<string, unknown>> = ActionContext<LineRow, I>;

/** How long a port-out PIN stays valid. */
export const PORT_OUT_PIN_DAYS = 30;

const lineId = (ctx: LineContext) => ctx.row.id;
const now = () => new Date();

/** Tells the account's holder what was done to the line, and by whom (the role, never a name). */
async function tellHolder(ctx: LineContext, kind: NotificationKind, params: NoticeParams = {}) {
  if (!ctx.row.ownerUid) return; // an account nobody has claimed yet has nobody to tell
  await ctx.effects.notify({
    recipientUid: ctx.row.ownerUid,
    kind,
    params: { msisdn: ctx.row.msisdn, byRole: ctx.principal.role, ...params },
    link: `/lines/show/${lineId(ctx)}`,
  });
}

/**
 * A change a number thief would make alerts every contact point of the account, with a "This wasn't
 * me" link (issue 27; server/domain/accountAlerts). These changes leave the contact points as they were.
 */
async function alertHolder(ctx: LineContext, change: AccountChange) {
  if (!ctx.row.ownerUid) return; // nobody has claimed the account: nobody to alert
  const { notificationId } = await alertAccountChange(ctx.tx, {
    operator: ctx.principal.operator,
    uid: ctx.row.ownerUid,
    change,
    lineId: lineId(ctx),
    requestId: ctx.requestId,
  });
  ctx.effects.publish({
    resource: "notifications",
    type: "created",
    ids: [notificationId],
    ownerUids: [ctx.row.ownerUid],
  });
}

/** The change goes through as an order of its own (TMF622), carried out at once. */
const completedOrder = (ctx: LineContext, type: "suspend" | "restore" | "sim_swap", details: Record<string, unknown>) =>
  placeOrder(
    ctx,
    {
      type,
      accountId: ctx.row.accountId,
      lineId: lineId(ctx),
      ownerUid: ctx.row.ownerUid,
      details,
      reason: ctx.reason,
    },
    { complete: true },
  );

/** Port-out PINs and SIM swaps are what number hijacking needs: while the number is locked, both are refused. */
function refuseWhileLocked(ctx: LineContext, action: "lines.lockedAction.portOutPin" | "lines.lockedAction.simSwap") {
  if (ctx.row.numberLocked) {
    throw conflict(words("lines.locked", { action: words(action) }), [
      { path: "numberLocked", message: words("lines.lockedField") },
    ]);
  }
}

export const suspendLine: ActionHandler<LineRow, { suspendReason: "lost" | "stolen" | "request" }> = {
  async run(ctx) {
    const { suspendReason } = ctx.input;
    await ctx.tx
      .update(lines)
      .set({ status: "suspended", suspendReason, updatedAt: now() })
      .where(eq(lines.id, lineId(ctx)));
    const order = await completedOrder(ctx, "suspend", { suspendReason });
    await tellHolder(ctx, "line.suspended", { suspendReason });
    return { order };
  },
  preview(ctx) {
    const lost = ctx.input.suspendReason !== "request";
    return Promise.resolve({
      summary: "resources.lines.preview.suspend",
      params: { msisdn: ctx.row.msisdn },
      lines: [
        { label: "resources.lines.preview.suspendStops" },
        { label: lost ? "resources.lines.preview.suspendLostRestore" : "resources.lines.preview.suspendRestore" },
        { label: "resources.lines.preview.noCharge" },
      ],
      total: null,
    });
  },
};

export const restoreLine: ActionHandler<LineRow> = {
  async run(ctx) {
    if (ctx.row.suspendReason === "non_payment" && ctx.principal.role === "subscriber") {
      throw unprocessable(
        words(ctx.row.accountType === "prepaid" ? "lines.suspendedNotRenewed" : "lines.suspendedUnpaid"),
        [{ path: "suspendReason", message: words("lines.suspendedForNonPayment") }],
      );
    }
    await ctx.tx
      .update(lines)
      .set({ status: "active", suspendReason: null, updatedAt: now() })
      .where(eq(lines.id, lineId(ctx)));
    const order = await completedOrder(ctx, "restore", { previousReason: ctx.row.suspendReason });
    await tellHolder(ctx, "line.restored");
    return { order };
  },
};

/**
 * Locks numbers against transfer: port-out PINs and SIM swaps are refused while locked, and a PIN
 * issued before the lock must not outlive it. Returns the ids of the lines it locked (ones already
 * locked are left as they are). Also what "This wasn't me" does to every line of an account.
 */
export async function lockNumbers(tx: Executor, lineIds: readonly string[]): Promise<string[]> {
  if (lineIds.length === 0) return [];
  const locked = await tx
    .update(lines)
    .set({ numberLocked: true, portOutPinHash: null, portOutPinExpiresAt: null, updatedAt: now() })
    .where(and(inArray(lines.id, [...lineIds]), eq(lines.numberLocked, false)))
    .returning({ id: lines.id });
  return locked.map((l) => l.id);
}

export const lockNumber: ActionHandler<LineRow> = {
  async run(ctx) {
    await lockNumbers(ctx.tx, [lineId(ctx)]);
    await tellHolder(ctx, "line.number_locked");
    await alertHolder(ctx, "number-lock");
  },
};

export const unlockNumber: ActionHandler<LineRow> = {
  async run(ctx) {
    await ctx.tx
      .update(lines)
      .set({ numberLocked: false, updatedAt: now() })
      .where(eq(lines.id, lineId(ctx)));
    await tellHolder(ctx, "line.number_unlocked");
    await alertHolder(ctx, "number-lock");
  },
};

/** A 6-digit PIN another carrier asks for to take the number over; shown once, stored as a hash, valid 30 days. */
export const issuePortOutPin: ActionHandler<LineRow> = {
  async run(ctx) {
    refuseWhileLocked(ctx, "lines.lockedAction.portOutPin");
    const pin = randomDigits(6);
    const expiresAt = new Date(Date.now() + PORT_OUT_PIN_DAYS * 24 * 60 * 60 * 1000);
    await ctx.tx
      .update(lines)
      .set({ portOutPinHash: await hashSecret(pin), portOutPinExpiresAt: expiresAt, updatedAt: now() })
      .where(eq(lines.id, lineId(ctx)));
    await tellHolder(ctx, "line.port_out_pin");
    await alertHolder(ctx, "port-out-pin");
    return { result: { pin, expiresAt: expiresAt.toISOString() } };
  },
};

/** The SIM's PUK (to unblock it after three wrong PINs), decrypted for this answer only; the audit row records that it was shown. */
export const revealPuk: ActionHandler<LineRow> = {
  async run(ctx) {
    const [row] = await ctx.tx
      .select({ pukCipher: lines.pukCipher })
      .from(lines)
      .where(eq(lines.id, lineId(ctx)));
    if (!row?.pukCipher)
      throw unprocessable(words("lines.noPuk"), [{ path: "puk", message: words("lines.noPukField") }]);
    const puk = ctx.services.secrets.open(row.pukCipher);
    await tellHolder(ctx, "line.puk_revealed");
    return { result: { puk } };
  },
};

/** The line's SIM order on its way by post (acknowledged or in progress), if any: one at a time. */
async function simOnItsWay(ctx: LineContext) {
  const [order] = await ctx.tx
    .select({ id: orders.id, state: orders.state, timeline: orders.timeline })
    .from(orders)
    .where(
      and(
        eq(orders.lineId, lineId(ctx)),
        eq(orders.type, "sim_swap"),
        inArray(orders.state, ["acknowledged", "in_progress"]),
        sql`${orders.details} ? 'delivery'`,
      ),
    )
    .limit(1);
  return order;
}

const oneLine = (a: Partial<Address>) => [a.line1, a.line2, a.city, `${a.state} ${a.zip}`].filter(Boolean).join(", ");

/**
 * A replacement physical SIM posted to a US address: an order that waits (acknowledged) until the
 * new SIM is activated with swap-sim, which completes it. The line keeps working on its SIM meanwhile.
 */
export const orderSim: ActionHandler<
  LineRow,
  { address: Partial<Address> & Pick<Address, "line1" | "city" | "state" | "zip"> }
> = {
  async run(ctx) {
    if (await simOnItsWay(ctx))
      throw conflict(words("lines.simOnItsWay"), [{ path: "address", message: words("lines.simOnItsWayField") }]);
    const delivery = { ...ctx.input.address, line2: ctx.input.address.line2 || null };
    const order = await placeOrder(
      ctx,
      {
        type: "sim_swap",
        accountId: ctx.row.accountId,
        lineId: lineId(ctx),
        ownerUid: ctx.row.ownerUid,
        details: { simType: "physical", delivery },
        reason: ctx.reason,
      },
      { complete: false },
    );
    await tellHolder(ctx, "line.sim_ordered", { address: oneLine(delivery) });
    return { order };
  },
  async preview(ctx) {
    if (await simOnItsWay(ctx))
      throw conflict(words("lines.simOnItsWay"), [{ path: "address", message: words("lines.simOnItsWayField") }]);
    return {
      summary: "resources.lines.preview.orderSim",
      params: { msisdn: ctx.row.msisdn, address: oneLine(ctx.input.address) },
      lines: [
        { label: "resources.lines.preview.simKeepsWorking" },
        { label: "resources.lines.preview.deliveryDays" },
        { label: "resources.lines.preview.noCharge" },
      ],
      total: null,
    };
  },
};

/** A new SIM for the line: a physical one by the number printed on it, or an eSIM profile we issue (with its activation code, shown once). */
/** An eSIM transfer needs the holder's ID (the input schema asks for it): theirs, or uploaded by the staff member acting for them. */
async function checkTransferId(ctx: LineContext<{ simType: "physical" | "esim"; idDocumentFileId?: string }>) {
  if (ctx.input.simType === "esim")
    await checkIdDocument(ctx.tx, ctx.principal, ctx.row.ownerUid, ctx.input.idDocumentFileId!);
}

export const swapSim: ActionHandler<
  LineRow,
  { simType: "physical" | "esim"; iccid?: string; idDocumentFileId?: string }
> = {
  async run(ctx) {
    refuseWhileLocked(ctx, "lines.lockedAction.simSwap");
    await checkTransferId(ctx);
    const esim = ctx.input.simType === "esim";
    const iccid = esim ? newEsimIccid() : ctx.input.iccid!;
    if (iccid === ctx.row.iccid)
      throw conflict(words("lines.sameSim"), [{ path: "iccid", message: words("lines.sameSimField") }]);
    const [taken] = await ctx.tx
      .select({ id: lines.id })
      .from(lines)
      // A terminated line's SIM is released (issue 28).
      .where(and(eq(lines.iccid, iccid), ne(lines.id, lineId(ctx)), ne(lines.status, "terminated")))
      .limit(1);
    if (taken) throw conflict(words("lines.simInUse"), [{ path: "iccid", message: words("lines.simInUseField") }]);
    const puk = randomDigits(8);
    await ctx.tx
      .update(lines)
      .set({ iccid, simType: ctx.input.simType, pukCipher: ctx.services.secrets.seal(puk), updatedAt: now() })
      .where(eq(lines.id, lineId(ctx)));
    const activationCode = esim ? newActivationCode() : null;
    // The order keeps the ID document it relied on: staff and the holder can open it from there.
    const order = await completedOrder(ctx, "sim_swap", {
      fromIccid: ctx.row.iccid,
      toIccid: iccid,
      simType: ctx.input.simType,
      ...(esim ? { idDocumentFileId: ctx.input.idDocumentFileId } : {}),
    });
    // A SIM that came by post is now in the phone: its delivery order is done.
    const posted = ctx.input.simType === "physical" ? await simOnItsWay(ctx) : undefined;
    if (posted) {
      let current = { ...posted, ownerUid: ctx.row.ownerUid };
      if (current.state === "acknowledged") {
        await advanceOrder(ctx, current, "in_progress", "system");
        current = { ...(await simOnItsWay(ctx))!, ownerUid: ctx.row.ownerUid };
      }
      await advanceOrder(
        ctx,
        current,
        "completed",
        ctx.principal.role,
        `activated as the SIM ending ${iccid.slice(-4)}`,
      );
    }
    await tellHolder(ctx, "line.sim_swapped");
    await alertHolder(ctx, esim ? "esim-transfer" : "sim-swap");
    return { result: { iccid, simType: ctx.input.simType, activationCode }, order };
  },
  async preview(ctx) {
    refuseWhileLocked(ctx, "lines.lockedAction.simSwap");
    await checkTransferId(ctx);
    const esim = ctx.input.simType === "esim";
    return {
      summary: esim ? "resources.lines.preview.swapToEsim" : "resources.lines.preview.swapToPhysical",
      params: { msisdn: ctx.row.msisdn, iccid: ctx.input.iccid ? ctx.input.iccid.slice(-4) : "" },
      lines: [
        { label: "resources.lines.preview.oldSimStops" },
        { label: esim ? "resources.lines.preview.scanQr" : "resources.lines.preview.insertSim" },
        { label: "resources.lines.preview.noCharge" },
      ],
      total: null,
    };
  },
};
