import { eq } from "drizzle-orm";
import type { Money } from "#resources/common";
import { PROBLEM_TYPES } from "#resources/api";
import type { ApprovalKind } from "#resources/approvals";
import { approvals } from "../../db/schema";
import { ProblemError } from "../../errors";
import { words } from "../../i18n/words";
import type { ActionContext, ActionHandler } from "../../engine/types";
import { postLedgerEntry } from "../money/ledger";
import { INVITER_WINDOW_MS, refuseUnconfirmedStaff, staffRowOf } from "../staff/trust";
import { toApproval, type ApprovalRow } from "./module";

/**
 * The two-person rule: a decision comes from another *person*, not another account. The person who
 * asked never decides, whatever their role; nor does whoever invited the requester in the last 30
 * days (a second account they made themselves), nor a member no admin but their inviter has
 * confirmed yet (issue 26: an admin invited a second admin, took its link and approved their own credit).
 */
async function refuseOwnRequest(ctx: ActionContext<ApprovalRow>) {
  if (ctx.row.requestedBy === ctx.principal.uid) {
    throw new ProblemError(
      403,
      words("approvals.ownRequest"),
      [{ path: "requestedBy", message: words("approvals.field.ownRequest") }],
      PROBLEM_TYPES.ownRequest,
    );
  }
  const requester = await staffRowOf(ctx.tx, ctx.row.operatorCode, ctx.row.requestedBy);
  if (requester?.invitedBy === ctx.principal.uid && Date.now() - requester.createdAt.getTime() < INVITER_WINDOW_MS) {
    throw new ProblemError(
      403,
      words("approvals.inviterOfRequester"),
      [{ path: "requestedBy", message: words("approvals.field.inviterOfRequester") }],
      PROBLEM_TYPES.ownRequest,
    );
  }
  await refuseUnconfirmedStaff(ctx.tx, ctx.principal, words("staff.doing.decideApprovals"));
}

/**
 * The requester hears the decision and the admin's reason in their inbox (the kind of request, its
 * amount and account say which one), in the decision's transaction.
 */
async function tellRequester(ctx: ActionContext<ApprovalRow>, status: "approved" | "rejected") {
  const row = ctx.row;
  await ctx.effects.notify({
    recipientUid: row.requestedBy,
    kind: "approval.decided",
    params: {
      decision: status,
      approvalKind: row.kind,
      amount: row.amount,
      currency: row.currency,
      accountName: row.accountName,
      reason: ctx.reason ?? "",
      byRole: ctx.principal.role,
    },
    link: `/approvals/show/${row.id}`,
  });
}

const decision = (ctx: ActionContext<ApprovalRow>, status: "approved" | "rejected") => ({
  status,
  decidedBy: ctx.principal.uid,
  decidedAt: new Date(),
  decisionReason: ctx.reason,
  updatedAt: new Date(),
});

/**
 * approvals/{id}/actions/approve: posts the requested entry to the account's ledger and marks the
 * request approved, in one transaction. The request row is locked and must be pending (the engine's
 * `when`), the ledger key `approval:<id>` posts once whatever happens, and the table refuses a second
 * decision: a double approve moves money once. A charge the balance no longer covers is 422 and the
 * request stays pending. The holder is told the money moved, the requester that it was approved.
 */
export const approveRequest: ActionHandler<ApprovalRow> = {
  async run(ctx) {
    await refuseOwnRequest(ctx);
    const row = ctx.row;
    const { entry, balance } = await postLedgerEntry(
      ctx.tx,
      {
        operatorCode: row.operatorCode,
        accountId: row.accountId,
        kind: row.kind,
        amount: row.amount,
        currency: row.currency,
        reason: row.reason,
        actorUid: row.requestedBy,
        actorRole: row.requestedByRole,
        idempotencyKey: `approval:${row.id}`,
        reference: { type: "approval", id: row.id },
      },
      (event) => ctx.effects.publish(event),
    );
    await ctx.tx
      .update(approvals)
      .set({ ...decision(ctx, "approved"), ledgerEntryId: entry.id })
      .where(eq(approvals.id, row.id));
    await tellRequester(ctx, "approved");
    const owners = row.ownerUid ? [row.ownerUid] : [];
    // Named by the account, as every other writer of entries does: the people of the account hear it (issue 28).
    ctx.effects.publish({ resource: "ledger-entries", type: "created", ids: [row.accountId], ownerUids: owners });
    ctx.effects.publish({ resource: "accounts", type: "updated", ids: [row.accountId], ownerUids: owners });
    if (row.ownerUid) {
      const params = { amount: row.amount, currency: row.currency, byRole: row.requestedByRole };
      await ctx.effects.notify(
        row.kind === "charge"
          ? { recipientUid: row.ownerUid, kind: "money.charged", params, link: null }
          : {
              recipientUid: row.ownerUid,
              kind: "money.adjusted",
              params: { ...params, balance: balance?.amount ?? null },
              link: null,
            },
      );
    }
  },
};

/** approvals/{id}/actions/reject: nothing moves; the request is closed with the admin's reason, which the requester is told. */
export const rejectRequest: ActionHandler<ApprovalRow> = {
  async run(ctx) {
    await refuseOwnRequest(ctx);
    await ctx.tx.update(approvals).set(decision(ctx, "rejected")).where(eq(approvals.id, ctx.row.id));
    await tellRequester(ctx, "rejected");
  },
};

/** What a money action above its bound asks for. */
export interface ApprovalRequest {
  kind: ApprovalKind;
  accountId: string;
  accountName: string;
  ownerUid: string | null;
  amount: Money;
  reason: string;
}

/**
 * Files a request for a second person, in the caller's transaction: nothing moves yet. Audited as
 * `approvals.request`; the admins' queue hears of it live. Returns the request as the API shows it.
 */
export async function requestApproval(
  ctx: Pick<ActionContext, "tx" | "principal" | "effects">,
  request: ApprovalRequest,
) {
  const [row] = await ctx.tx
    .insert(approvals)
    .values({
      operatorCode: ctx.principal.operator,
      kind: request.kind,
      accountId: request.accountId,
      amount: request.amount.amount,
      currency: request.amount.currency,
      reason: request.reason,
      requestedBy: ctx.principal.uid,
      requestedByRole: ctx.principal.role,
    })
    .returning();
  const record = toApproval({ ...row!, accountName: request.accountName, ownerUid: request.ownerUid });
  await ctx.effects.audit({
    action: "approvals.request",
    targetType: "approvals",
    targetId: record.id,
    before: null,
    after: record,
    reason: request.reason,
  });
  ctx.effects.publish({ resource: "approvals", type: "created", ids: [record.id], ownerUids: [] });
  return record;
}
