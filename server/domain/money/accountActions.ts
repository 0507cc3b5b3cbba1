import { ADJUSTMENT_LIMITS } from "../../../src/resources/accounts";
import type { Money } from "../../../src/resources/common";
import { forbidden, unprocessable } from "../../errors";
import type { ActionContext, ActionHandler } from "../../engine/types";
import { postLedgerEntry } from "./ledger";
import { moneyText } from "./moneyText";

type AccountRowLike = { id: string; ownerUid: string | null; currency: string };

/** The most one person may move in one adjustment or charge: agents are bounded, admins less so. */
function checkBound(ctx: ActionContext<AccountRowLike, { amount: Money }>) {
  const limit = ADJUSTMENT_LIMITS[ctx.principal.role as keyof typeof ADJUSTMENT_LIMITS];
  if (limit === undefined) throw forbidden("Only staff move money on an account by hand.");
  const { amount } = ctx.input;
  if (amount.currency !== ctx.row.currency) throw unprocessable(`This account is kept in ${ctx.row.currency}.`, [{ path: "amount.currency", message: `must be ${ctx.row.currency}` }]);
  if (amount.amount > limit) {
    const most = moneyText({ amount: limit, currency: amount.currency });
    throw unprocessable(`A ${ctx.principal.role} may move at most ${most} at a time.`, [{ path: "amount.amount", message: `at most ${most} for a ${ctx.principal.role}` }]);
  }
}

const moneyEntry = (ctx: ActionContext<AccountRowLike, { amount: Money }>, kind: "adjustment" | "charge") => ({
  operatorCode: ctx.principal.operator,
  accountId: ctx.row.id,
  kind,
  amount: ctx.input.amount.amount,
  currency: ctx.input.amount.currency,
  reason: ctx.reason!,
  actorUid: ctx.principal.uid,
  actorRole: ctx.principal.role,
});

/** A credit by staff (goodwill, a correction), with the reason the engine requires; the holder is told. */
export const adjustAccount: ActionHandler<AccountRowLike, { amount: Money }> = {
  async run(ctx) {
    checkBound(ctx);
    const { balance } = await postLedgerEntry(ctx.tx, moneyEntry(ctx, "adjustment"));
    ctx.effects.publish({ resource: "ledger-entries", type: "created", ids: [ctx.row.id], ownerUids: ctx.row.ownerUid ? [ctx.row.ownerUid] : [] });
    if (ctx.row.ownerUid) await ctx.effects.notify({ recipientUid: ctx.row.ownerUid, kind: "money.adjusted", params: { amount: ctx.input.amount.amount, balance: balance?.amount ?? null, currency: ctx.input.amount.currency, byRole: ctx.principal.role }, link: null });
  },
};

/** A one-off charge by staff (a fee, a correction of a credit given by mistake): a prepaid balance must cover it (else 422 with the shortfall). */
export const chargeAccount: ActionHandler<AccountRowLike, { amount: Money }> = {
  async run(ctx) {
    checkBound(ctx);
    await postLedgerEntry(ctx.tx, moneyEntry(ctx, "charge"));
    ctx.effects.publish({ resource: "ledger-entries", type: "created", ids: [ctx.row.id], ownerUids: ctx.row.ownerUid ? [ctx.row.ownerUid] : [] });
    if (ctx.row.ownerUid) await ctx.effects.notify({ recipientUid: ctx.row.ownerUid, kind: "money.charged", params: { amount: ctx.input.amount.amount, currency: ctx.input.amount.currency, byRole: ctx.principal.role }, link: null });
  },
};
