import { eq } from "drizzle-orm";
import { PORT_IN_REJECTIONS, type PortInRejection } from "#resources/orders";
import type { ResourceEvent } from "#resources/events";
import type { Db } from "../../db/client";
import { accounts, lines, orders, portInSubmissions } from "../../db/schema";
import { ProblemError } from "../../errors";
import { words } from "../../i18n/words";
import type { ExchangeEvent } from "../../portingExchange/protocol";
import type { WriteContext } from "../../engine/types";
import { advanceOrder } from "../orders/orderFlow";
import { portInMessages, portInNotice } from "./notices";
import { portInDetailsOf } from "./submit";
import { releaseTemporaryNumber } from "./temporaryNumber";

export const rejectionOf = (code: string | undefined): PortInRejection =>
  (PORT_IN_REJECTIONS as readonly string[]).includes(code ?? "") ? (code as PortInRejection) : "other";

/**
 * Records the exchange's answer to one port request, once, in one transaction. The submission it
 * names (its reference) is locked; an answer for one already answered changes nothing (`duplicate`).
 *
 * - accepted: the line takes the ported number, its temporary number goes back to the inventory,
 *   the order completes (its timeline says the number moved), and the holder is told (inbox, email,
 *   SMS to the number now ours);
 * - rejected: the order waits for the holder (`pending`), its timeline step saying why in words
 *   (`orders.portIn.rejected.<code>`, the exchange's own text kept in `details.portIn.rejection`),
 *   and the holder is told (inbox, email) to correct the details and resubmit.
 */
export async function applyPortInAnswer(
  db: Db,
  event: ExchangeEvent,
): Promise<{ duplicate: boolean; events: ResourceEvent[] }> {
  return db.transaction(async (tx) => {
    const [submission] = await tx
      .select()
      .from(portInSubmissions)
      .where(eq(portInSubmissions.id, event.data.reference))
      .for("update");
    if (!submission || (submission.exchangeRequestId !== null && submission.exchangeRequestId !== event.data.requestId))
      throw new ProblemError(404, words("porting.webhook.unknownRequest"), [
        { path: "data.reference", message: words("porting.webhook.unknownRequestField") },
      ]);
    if (submission.status === "accepted" || submission.status === "rejected") return { duplicate: true, events: [] };

    const accepted = event.type === "port_request.accepted";
    const code = accepted ? null : rejectionOf(event.data.reasonCode);
    await tx
      .update(portInSubmissions)
      .set({
        status: accepted ? "accepted" : "rejected",
        exchangeRequestId: event.data.requestId,
        rejectionCode: code,
        rejectionText: accepted ? null : (event.data.reason ?? null),
        answeredAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(portInSubmissions.id, submission.id));

    const [order] = await tx
      .select({
        id: orders.id,
        state: orders.state,
        timeline: orders.timeline,
        details: orders.details,
        lineId: orders.lineId,
        accountId: orders.accountId,
        operatorCode: orders.operatorCode,
        ownerUid: accounts.ownerUid,
        email: accounts.email,
      })
      .from(orders)
      .innerJoin(accounts, eq(accounts.id, orders.accountId))
      .where(eq(orders.id, submission.orderId))
      .for("update", { of: orders });
    const details = order ? portInDetailsOf(order.details) : null;
    // An order no longer waiting on the exchange (cancelled by staff meanwhile): the answer is kept, nothing moves.
    if (!order || !details || order.state !== "in_progress") return { duplicate: false, events: [] };

    const events: ResourceEvent[] = [];
    // The exchange's answer is the system's write: its order step and live events, sent after the commit.
    const effects: Pick<WriteContext, "tx" | "effects"> = {
      tx,
      effects: {
        publish: (e) => void events.push({ ...e, operator: order.operatorCode, at: new Date().toISOString() }),
        notify: () => Promise.resolve(),
        audit: () => Promise.resolve(),
      },
    };
    const current = {
      id: order.id,
      state: order.state,
      timeline: order.timeline,
      ownerUid: order.ownerUid,
    };
    const msisdn = details.portIn.msisdn;
    const holder = { uid: order.ownerUid, email: order.email };

    if (accepted) {
      const temporary = details.temporaryMsisdn;
      if (order.lineId) {
        const [line] = await tx
          .update(lines)
          .set({ msisdn, updatedAt: new Date() })
          .where(eq(lines.id, order.lineId))
          .returning({ id: lines.id });
        const ownerUids = order.ownerUid ? [order.ownerUid] : [];
        if (line) effects.effects.publish({ resource: "lines", type: "updated", ids: [line.id], ownerUids });
        // The care 360 and staff search show the account's numbers: the temporary one is gone.
        effects.effects.publish({ resource: "subscribers", type: "updated", ids: [order.accountId], ownerUids });
      }
      if (temporary) await releaseTemporaryNumber(tx, order.operatorCode, temporary);
      await advanceOrder(effects, current, "completed", "system", "orders.portIn.accepted");
      await tx
        .update(orders)
        .set({ details: { ...order.details, portedAt: new Date().toISOString() } })
        .where(eq(orders.id, order.id));
      if (order.ownerUid)
        events.push(
          await portInNotice(tx, order.operatorCode, order.ownerUid, "port_in.accepted", { msisdn }, order.id),
        );
      await portInMessages(tx, order.operatorCode, holder, "port_in.accepted", { msisdn }, msisdn);
    } else {
      await advanceOrder(effects, current, "pending", "system", `orders.portIn.rejected.${code}`);
      await tx
        .update(orders)
        .set({
          details: {
            ...order.details,
            portIn: { ...details.portIn, rejection: { code, text: event.data.reason ?? null } },
          },
        })
        .where(eq(orders.id, order.id));
      const params = { msisdn, portInReason: code };
      if (order.ownerUid)
        events.push(await portInNotice(tx, order.operatorCode, order.ownerUid, "port_in.rejected", params, order.id));
      await portInMessages(tx, order.operatorCode, holder, "port_in.rejected", params, null);
    }
    return { duplicate: false, events };
  });
}
