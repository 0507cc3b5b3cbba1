import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { ADJUSTMENT_LIMITS } from "#resources/accounts";
import type { Money } from "#resources/common";
import { ledgerEntries } from "../../db/schema";
import { forbidden, unprocessable } from "../../errors";
import { words } from "../../i18n/words";
import type { ActionContext, ActionHandler } from "../../engine/types";
import { postLedgerEntry } from "./ledger";
import { requestApproval } from "../approvals/decide";

type AccountRowLike = { id: string; name: string; ownerUid: string | null; currency: string };

type ManualKind = "adjustment" | "refund" | "charge";

/** Credits and charges are bounded apart: a credit's bound counts credits (adjustments and refunds), a charge's counts charges. */
const BOUNDED_TOGETHER: Record<ManualKind, ManualKind[]> = {
  adjustment: ["adjustment", "refund"],
  refund: ["adjustment", "refund"],
  charge: ["charge"],
};

/**
 * What the caller moved by hand on this account in the last 24 hours, of the kinds bounded with
 * `kind`: their own entries without a reference (an approved request's entry has one, `approval/<id>`,
 * and was checked by a second person; plan changes, add-ons and refunds of top-ups carry theirs too).
 * The account row is locked by the action, so two requests of one account count each other.
 */
async function movedInLastDay(
  ctx: ActionContext<AccountRowLike, { amount: Money }>,
  kind: ManualKind,
): Promise<number> {
  const [row] = await ctx.tx
    .select({ total: sql<number>`coalesce(sum(${ledgerEntries.amount}), 0)::int` })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.accountId, ctx.row.id),
        eq(ledgerEntries.actorUid, ctx.principal.uid),
        inArray(ledgerEntries.kind, BOUNDED_TOGETHER[kind]),
        isNull(ledgerEntries.referenceType),
        gt(ledgerEntries.createdAt, sql`now() - interval '24 hours'`),
      ),
    );
  return Number(row?.total ?? 0);
}

/**
 * The most one person may move on one account on their own in a rolling 24 hours, credits and
 * charges apart: agents are bounded, admins less so. Returns whether this amount, added to what the
 * caller already moved there, stays within the bound; past it, the two-person rule applies (the
 * caller files a request for an admin's approval), so four $50.00 credits in a row are not $200.00.
 */
async function withinBound(ctx: ActionContext<AccountRowLike, { amount: Money }>, kind: ManualKind): Promise<boolean> {
  const limit = ADJUSTMENT_LIMITS[ctx.principal.role as keyof typeof ADJUSTMENT_LIMITS];
  if (limit === undefined) throw forbidden(words("money.staffOnly"));
  const { amount } = ctx.input;
  if (amount.currency !== ctx.row.currency)
    throw unprocessable(words("money.keptIn", { currency: ctx.row.currency }), [
      { path: "amount.currency", message: words("money.mustBeCurrency", { currency: ctx.row.currency }) },
    ]);
  if (amount.amount > limit) return false;
  return (await movedInLastDay(ctx, kind)) + amount.amount <= limit;
}

/** Above the caller's bound: nothing moves, an admin other than the caller must approve (202 with the request). */
async function fileForApproval(
  ctx: ActionContext<AccountRowLike, { amount: Money }>,
  kind: "adjustment" | "refund" | "charge",
) {
  const accepted = await requestApproval(ctx, {
    kind,
    accountId: ctx.row.id,
    accountName: ctx.row.name,
    ownerUid: ctx.row.ownerUid,
    amount: ctx.input.amount,
    reason: ctx.reason!,
  });
  return { accepted };
}

const moneyEntry = (
  ctx: ActionContext<AccountRowLike, { amount: Money }>,
  kind: "adjustment" | "refund" | "charge",
) => ({
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
    if (!(await withinBound(ctx, kind))) return fileForApproval(ctx, kind);
    const { balance } = await postLedgerEntry(ctx.tx, moneyEntry(ctx, kind), (event) => ctx.effects.publish(event));
    ctx.effects.publish({
      resource: "ledger-entries",
      type: "created",
      ids: [ctx.row.id],
      ownerUids: ctx.row.ownerUid ? [ctx.row.ownerUid] : [],
    });
    if (ctx.row.ownerUid)
      await ctx.effects.notify({
        recipientUid: ctx.row.ownerUid,
        kind: "money.adjusted",
        params: {
          amount: ctx.input.amount.amount,
          balance: balance?.amount ?? null,
          currency: ctx.input.amount.currency,
          byRole: ctx.principal.role,
        },
        link: null,
      });
  },
});

/** Goodwill or a correction. */
export const adjustAccount = creditAccount("adjustment");
/** Money given back (a charge made in error, a service not delivered): a credit kept apart in the ledger as a refund. */
export const refundAccount = creditAccount("refund");

/** A one-off charge by staff (a fee, a correction of a credit given by mistake): a prepaid balance must cover it (else 422 with the shortfall). Above the bound, a request for approval. */
export const chargeAccount: ActionHandler<AccountRowLike, { amount: Money }> = {
  async run(ctx) {
    if (!(await withinBound(ctx, "charge"))) return fileForApproval(ctx, "charge");
    await postLedgerEntry(ctx.tx, moneyEntry(ctx, "charge"));
    ctx.effects.publish({
      resource: "ledger-entries",
      type: "created",
      ids: [ctx.row.id],
      ownerUids: ctx.row.ownerUid ? [ctx.row.ownerUid] : [],
    });
    if (ctx.row.ownerUid)
      await ctx.effects.notify({
        recipientUid: ctx.row.ownerUid,
        kind: "money.charged",
        params: { amount: ctx.input.amount.amount, currency: ctx.input.amount.currency, byRole: ctx.principal.role },
        link: null,
      });
  },
};
