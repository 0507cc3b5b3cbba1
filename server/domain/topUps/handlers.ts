import { eq } from "drizzle-orm";
import type { ActionHandler } from "../../engine/types";
import { topUps } from "../../db/schema";
import { postLedgerEntry } from "../money/ledger";
import { enqueueRefundClaimLead } from "../crm/leadSources";
import type { TopUpRow } from "./records";

/** The ledger key of a top-up's refund: approved once, however often the approval is retried. */
export const topUpRefundKey = (topUpId: string) => `top-up-refund:${topUpId}`;

/** top-ups/{id}/actions/cancel: stop waiting for a charge that did not answer (created → cancelled). A late capture then makes a refund claimable. */
export const cancelTopUp: ActionHandler<TopUpRow> = {
  async run(ctx) {
    await ctx.tx.update(topUps).set({ status: "cancelled", updatedAt: new Date() }).where(eq(topUps.id, ctx.row.id));
  },
};

/**
 * top-ups/{id}/actions/claim-refund: one tap by the subscriber (or an agent for them) on a top-up
 * that failed or was cancelled on our side while the gateway captured the money (the declaration's
 * `when` checks all three). An agent then approves it. The claim is also a CRM lead (Bitrix24), written
 * in the same transaction.
 */
export const claimTopUpRefund: ActionHandler<TopUpRow> = {
  async run(ctx) {
    await ctx.tx.update(topUps).set({ refund: "claimed", updatedAt: new Date() }).where(eq(topUps.id, ctx.row.id));
    await enqueueRefundClaimLead(ctx, ctx.row);
    if (ctx.row.ownerUid) {
      await ctx.effects.notify({
        recipientUid: ctx.row.ownerUid,
        kind: "top_up.refund_claimed",
        params: { amount: ctx.row.amount, currency: ctx.row.currency, byRole: ctx.principal.role },
        link: "/top-up",
      });
    }
  },
};

/**
 * top-ups/{id}/actions/approve-refund: an agent or admin (with the reason the declaration requires)
 * turns a claim into a ledger `reversal` entry: it reverses the top-up's failure by crediting the
 * amount the gateway captured, keyed by the top-up so it posts once.
 */
export const approveTopUpRefund: ActionHandler<TopUpRow> = {
  async run(ctx) {
    const { row } = ctx;
    await postLedgerEntry(
      ctx.tx,
      {
        operatorCode: row.operatorCode,
        accountId: row.accountId,
        kind: "reversal",
        amount: row.amount,
        currency: row.currency,
        reason: `Reversal of a card top-up that failed after the gateway captured it: ${ctx.reason}`,
        actorUid: ctx.principal.uid,
        actorRole: ctx.principal.role,
        idempotencyKey: topUpRefundKey(row.id),
        reference: { type: "top-ups", id: row.id },
      },
      (event) => ctx.effects.publish(event),
    );
    await ctx.tx.update(topUps).set({ refund: "approved", updatedAt: new Date() }).where(eq(topUps.id, row.id));
    const owners = row.ownerUid ? [row.ownerUid] : [];
    ctx.effects.publish({ resource: "ledger-entries", type: "created", ids: [row.accountId], ownerUids: owners });
    if (row.ownerUid) {
      await ctx.effects.notify({
        recipientUid: row.ownerUid,
        kind: "top_up.refunded",
        params: { amount: row.amount, currency: row.currency, byRole: ctx.principal.role },
        link: "/top-up",
      });
    }
  },
};
