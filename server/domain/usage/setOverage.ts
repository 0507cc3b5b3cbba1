import { and, eq, sql } from "drizzle-orm";
import type { ActionHandler } from "../../engine/types";
import { lines, usageCaps, usageCounters } from "../../db/schema";
import type { LineRow } from "../lines/module";
import { allowanceInRecordUnits, allowancesOf } from "./allowances";
import { cycleStartOf } from "./cycles";
import { USAGE_TYPES } from "#resources/usage";

/**
 * lines/{id}/actions/set-overage `{payAsYouGo}` (issue 24): on, usage past the allowance goes on at the
 * plan's rates (where it has one); off, it stops at the allowance even where the plan has a rate.
 * Turning it off bars at once the types whose allowance is used up this cycle; turning it on lifts
 * what pay-as-you-go off barred (a plan without a rate, or a prepaid balance at zero, still stops
 * the next record). Audited by the engine (the line's before and after), holder's or staff's reason.
 */
export const setOverage: ActionHandler<LineRow, { payAsYouGo: boolean }> = {
  async run(ctx) {
    const lineId = ctx.row.id;
    const { payAsYouGo } = ctx.input;
    await ctx.tx.update(lines).set({ payAsYouGo, updatedAt: new Date() }).where(eq(lines.id, lineId));
    if (payAsYouGo) {
      await ctx.tx.delete(usageCaps).where(and(eq(usageCaps.lineId, lineId), eq(usageCaps.reason, "pay_as_you_go")));
    } else {
      const line = (await allowancesOf(ctx.tx, [lineId])).get(lineId)!;
      const cycleStart = cycleStartOf(new Date(), line.cycleDay);
      const counters = await ctx.tx
        .select({
          type: usageCounters.type,
          covered: sql<string>`${usageCounters.used} - ${usageCounters.overAllowance}`,
        })
        .from(usageCounters)
        .where(and(eq(usageCounters.lineId, lineId), eq(usageCounters.cycleStart, cycleStart)));
      const usedUp = USAGE_TYPES.filter((type) => {
        const allowance = allowanceInRecordUnits(type, line.allowance[type]);
        const covered = Number(counters.find((c) => c.type === type)?.covered ?? 0);
        return allowance !== null && covered >= allowance;
      });
      if (usedUp.length) {
        await ctx.tx
          .insert(usageCaps)
          .values(usedUp.map((type) => ({ lineId, cycleStart, type, reason: "pay_as_you_go" as const })))
          .onConflictDoNothing();
      }
    }
    ctx.effects.publish({
      resource: "meters",
      type: "updated",
      ids: [lineId],
      ownerUids: ctx.row.ownerUid ? [ctx.row.ownerUid] : [],
    });
  },
};
