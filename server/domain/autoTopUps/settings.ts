import { and, eq } from "drizzle-orm";
import type { AutoTopUpSetting } from "#resources/accounts";
import { topUpPaymentOf } from "#resources/topUps";
import { autoTopUpSettings, operators, paymentMethods } from "../../db/schema";
import type { ActionHandler } from "../../engine/types";
import { unprocessable } from "../../errors";
import { words } from "../../i18n/words";

type AccountRowLike = { id: string; ownerUid: string | null; currency: string };

/**
 * accounts/{id}/actions/set-auto-top-up: the holder (or staff for them, with a reason) sets the
 * account's auto top-up. Switching it on needs a card gateway for the operator (ATT has none: 422,
 * vouchers instead) and a default saved card of the holder (else 422); both name `enabled`.
 * Switching it off always works. The amounts are in the account's currency.
 */
export const setAutoTopUp: ActionHandler<AccountRowLike, AutoTopUpSetting> = {
  async run(ctx) {
    const { input, row, principal } = ctx;
    for (const field of ["threshold", "amount"] as const) {
      if (input[field].currency !== row.currency)
        throw unprocessable(words("money.keptIn", { currency: row.currency }), [
          { path: `${field}.currency`, message: words("money.mustBeCurrency", { currency: row.currency }) },
        ]);
    }
    if (input.enabled) {
      // Read in this transaction (the operator directory's own read would wait for it on PGlite's one connection).
      const [operator] = await ctx.tx
        .select({ settings: operators.settings })
        .from(operators)
        .where(eq(operators.code, principal.operator));
      const gateway = topUpPaymentOf(operator?.settings);
      if (gateway === "" || !ctx.services.payments?.[gateway]) {
        throw unprocessable(words("topUps.autoUnavailable"), [
          { path: "enabled", message: words("topUps.autoUnavailableField") },
        ]);
      }
      const [method] = row.ownerUid
        ? await ctx.tx
            .select({ id: paymentMethods.id })
            .from(paymentMethods)
            .where(
              and(
                eq(paymentMethods.operatorCode, principal.operator),
                eq(paymentMethods.ownerUid, row.ownerUid),
                eq(paymentMethods.isDefault, true),
                eq(paymentMethods.gateway, gateway),
                eq(paymentMethods.type, "card"),
              ),
            )
        : [];
      if (!method)
        throw unprocessable(words("topUps.autoNeedsDefaultCard"), [
          { path: "enabled", message: words("topUps.autoNeedsDefaultCardField") },
        ]);
    }
    const values = {
      enabled: input.enabled,
      thresholdAmount: input.threshold.amount,
      amount: input.amount.amount,
      currency: row.currency,
      maxPerMonth: input.maxPerMonth,
      updatedBy: principal.uid,
      updatedAt: new Date(),
    };
    await ctx.tx
      .insert(autoTopUpSettings)
      .values({ accountId: row.id, operatorCode: principal.operator, ...values })
      .onConflictDoUpdate({ target: autoTopUpSettings.accountId, set: values });
    ctx.effects.publish({
      resource: "accounts",
      type: "updated",
      ids: [row.id],
      ownerUids: row.ownerUid ? [row.ownerUid] : [],
    });
  },
};
