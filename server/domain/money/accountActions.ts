import { ADJUSTMENT_LIMITS } from "../../../src/resources/accounts";
import type { Money } from "../../../src/resources/common";
import { forbidden, unprocessable } from "../../errors";
import type { ActionContext, ActionHandler } from "../../engine/types";
import { postLedgerEntry } from "./ledger";
import { requestApproval } from "../approvals/decide";

type AccountRowLike = { id: string; name: string; ownerUid: string | null; currency: string };

/**
 * The most one person may move in one adjustment or charge on their own: agents are bounded, admins
 * less so. Returns whether the amount is within the caller's bound; above it, the two-person rule
 * applies (the caller files a request for an admin's approval).
 */
function withinBound(ctx: ActionContext<AccountRowLike, { amount: Money }>): boolean {
  const limit = ADJUSTMENT_LIMITS[ctx.principal.role as keyof typeof ADJUSTMENT_LIMITS];
  if (limit === undefined) throw forbidden("Only staff move money on an account by hand.");
  const { amount } = ctx.input;
  if (amount.currency !== ctx.row.currency) throw unprocessable(`This account is kept in ${ctx.row.currency}.`, [{ path: "amount.currency", message: `must be ${ctx.row.currency}` }]);
  return amount.amount <= limit;
}

/** Above the caller's bound: nothing moves, an admin other than the caller must approve (202 with the request). */
async function fileForApproval(ctx: ActionContext<AccountRowLike, { amount: Money }>, kind: "adjustment" | "refund" | "charge") {
  const accepted = await requestApproval(ctx, { kind, accountId: ctx.row.id, accountName: ctx.row.name, ownerUid: ctx.row.ownerUid, amount: ctx.input.amount, reason: ctx.reason! });
  return { accepted };
}

const moneyEntry = (ctx: ActionContext<AccountRowLike, { amount: Money }>, kind: "adjustment" | "refund" | "charge") => ({
  operatorCode: ctx.principal.operator,
  accountId: ctx.row.id,
  kind,
  amount: ctx.input.amount.amount,
  currency: ctx.input.amount.currency,
  reason: ctx.reason!,
  actorUid: ctx.principal.uid,
  actorRole: ctx.principal.role,
});

/** A credit by staff of this kind, with the reason the engine requires; the holder is told. Above the bound, a request for approval. */
const creditAccount = (kind: "adjustment" | "refund"): ActionHandler<AccountRowLike, { amount: Money }> => ({
  async run(ctx) {
    if (!withinBound(ctx)) return fileForApproval(ctx, kind);
    const { balance } = await postLedgerEntry(ctx.tx, moneyEntry(ctx, kind));
    ctx.effects.publish({ resource: "ledger-entries", type: "created", ids: [ctx.row.id], ownerUids: ctx.row.ownerUid ? [ctx.row.ownerUid] : [] });
    if (ctx.row.ownerUid) await ctx.effects.notify({ recipientUid: ctx.row.ownerUid, kind: "money.adjusted", params: { amount: ctx.input.amount.amount, balance: balance?.amount ?? null, currency: ctx.input.amount.currency, byRole: ctx.principal.role }, link: null });
  },
});

/** Goodwill or a correction. */
export const adjustAccount = creditAccount("adjustment");
/** Money given back (a charge made in error, a service not delivered): a credit kept apart in the ledger as a refund. */
export const refundAccount = creditAccount("refund");

/** A one-off charge by staff (a fee, a correction of a credit given by mistake): a prepaid balance must cover it (else 422 with the shortfall). Above the bound, a request for approval. */
export const chargeAccount: ActionHandler<AccountRowLike, { amount: Money }> = {
  async run(ctx) {
    if (!withinBound(ctx)) return fileForApproval(ctx, "charge");
    await postLedgerEntry(ctx.tx, moneyEntry(ctx, "charge"));
    ctx.effects.publish({ resource: "ledger-entries", type: "created", ids: [ctx.row.id], ownerUids: ctx.row.ownerUid ? [ctx.row.ownerUid] : [] });
    if (ctx.row.ownerUid) await ctx.effects.notify({ recipientUid: ctx.row.ownerUid, kind: "money.charged", params: { amount: ctx.input.amount.amount, currency: ctx.input.amount.currency, byRole: ctx.principal.role }, link: null });
  },
};
