import { eq } from "drizzle-orm";
import type { ResourceEvent } from "#resources/events";
import { recordAudit, type Executor } from "../../audit";
import { accounts, notifications, topUps } from "../../db/schema";
import { postLedgerEntry } from "../money/ledger";
import { AUTO_TOP_UP_ACTOR } from "../autoTopUps/actor";
import { toTopUp, topUpSelection, type TopUpRow } from "./records";

/** What the gateway said about a top-up's charge, from its answer or its webhook. */
export type Settlement =
  { outcome: "succeeded"; chargeId: string } | { outcome: "failed"; chargeId: string | null; failureCode: string };

/** The ledger key of a top-up's credit: one per top-up, so it is posted once whoever settles first. */
export const topUpCreditKey = (topUpId: string) => `top-up:${topUpId}`;

/**
 * Applies a charge's outcome to a top-up, in the caller's transaction, however often and in
 * whatever order the answer and the webhooks arrive: the row is locked, only a `created` top-up
 * moves (succeeded → completed with its ledger credit, failed → failed), and a capture reported for
 * a top-up that already failed or was cancelled is recorded (`gatewayCaptured`) so the subscriber
 * can claim the money back. Answers the top-up as it stands and the live events to send after the commit.
 */
export async function settleTopUp(
  tx: Executor,
  topUpId: string,
  settlement: Settlement,
  by: { via: "charge" | "webhook"; requestId: string },
): Promise<{ row: TopUpRow; events: Omit<ResourceEvent, "at">[] } | null> {
  const [row] = await tx
    .select(topUpSelection)
    .from(topUps)
    .innerJoin(accounts, eq(accounts.id, topUps.accountId))
    .where(eq(topUps.id, topUpId))
    .for("update", { of: topUps });
  if (!row) return null;
  const owners = row.ownerUid ? [row.ownerUid] : [];
  const events: Omit<ResourceEvent, "at">[] = [];
  const notify = async (
    kind: "top_up.completed" | "top_up.failed" | "auto_top_up.failed",
    params: Record<string, string | number>,
  ) => {
    if (!row.ownerUid) return;
    const [notice] = await tx
      .insert(notifications)
      .values({
        operatorCode: row.operatorCode,
        recipientUid: row.ownerUid,
        kind,
        params: { amount: row.amount, currency: row.currency, ...params },
        link: "/top-up",
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
  const change = async (values: Partial<typeof topUps.$inferInsert>, action: string) => {
    const [updated] = await tx
      .update(topUps)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(topUps.id, topUpId))
      .returning();
    const after = { ...updated!, ownerUid: row.ownerUid };
    await recordAudit(tx, {
      operator: row.operatorCode,
      actorUid: null,
      actorRole: "system",
      action: `top-ups.${action}`,
      targetType: "top-ups",
      targetId: topUpId,
      before: toTopUp(row),
      after: toTopUp(after),
      reason: `gateway ${by.via}`,
      requestId: by.requestId,
    });
    events.push({
      operator: row.operatorCode,
      resource: "top-ups",
      type: "updated",
      ids: [topUpId],
      ownerUids: owners,
    });
    return after;
  };

  if (settlement.outcome === "succeeded") {
    if (row.status === "created") {
      await postLedgerEntry(
        tx,
        {
          operatorCode: row.operatorCode,
          accountId: row.accountId,
          kind: "top_up",
          amount: row.amount,
          currency: row.currency,
          reason: "Card top-up",
          actorUid: row.createdBy,
          actorRole: "system",
          idempotencyKey: topUpCreditKey(topUpId),
          reference: { type: "top-ups", id: topUpId },
        },
        (event) => events.push({ ...event, operator: row.operatorCode, ownerUids: event.ownerUids ?? [] }),
      );
      events.push({
        operator: row.operatorCode,
        resource: "ledger-entries",
        type: "created",
        ids: [row.accountId],
        ownerUids: owners,
      });
      const after = await change(
        { status: "completed", gatewayChargeId: settlement.chargeId, gatewayCaptured: true },
        "complete",
      );
      await notify("top_up.completed", {});
      return { row: after, events };
    }
    if (!row.gatewayCaptured && (row.status === "failed" || row.status === "cancelled")) {
      // The money was taken after we gave up on it: the subscriber may claim it back in one tap.
      return {
        row: await change({ gatewayCaptured: true, gatewayChargeId: settlement.chargeId }, "capture-late"),
        events,
      };
    }
    return { row, events };
  }
  if (row.status === "created") {
    const after = await change(
      {
        status: "failed",
        failureReason: settlement.failureCode,
        gatewayChargeId: settlement.chargeId ?? row.gatewayChargeId,
      },
      "fail",
    );
    await notify("top_up.failed", { failureReason: settlement.failureCode });
    // An auto top-up's decline gets its own notice here, once, whether the charge's answer or a late webhook brings it.
    if (row.createdBy === AUTO_TOP_UP_ACTOR.uid)
      await notify("auto_top_up.failed", { failureReason: settlement.failureCode });
    return { row: after, events };
  }
  return { row, events };
}
