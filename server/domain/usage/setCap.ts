import { and, eq } from "drizzle-orm";
import { rateOf } from "#resources/overage";
import type { ActionHandler } from "../../engine/types";
import { accounts, lines, plans, usageCaps, usageCounters, usagePools } from "../../db/schema";
import { unprocessable } from "../../errors";
import { words } from "../../i18n/words";
import type { LineRow } from "../lines/module";
import { allowancesOf } from "./allowances";
import { tellCapped } from "./capAlerts";
import { cycleStartOf } from "./cycles";

/**
 * lines/{id}/actions/set-cap `{dataMb}` (issue 28): the owner's monthly data limit of one line, in MB
 * (null removes it). Reached, that line's data stops until its next cycle (rating.ts, reason
 * `line_cap`); the account's other lines and the pool go on. A limit below what the line already used
 * this cycle is refused (422 at `dataMb`); one equal to it stops the line's data at once; raising or
 * removing it lets the data go on at once. Audited by the engine (the line's before and after).
 */
export const setCap: ActionHandler<LineRow, { dataMb: number | null }> = {
  async run(ctx) {
    const lineId = ctx.row.id;
    const { dataMb } = ctx.input;
    const cycleStart = cycleStartOf(new Date(), ctx.row.cycleDay);
    const [counter] = await ctx.tx
      .select({ used: usageCounters.used })
      .from(usageCounters)
      .where(
        and(eq(usageCounters.lineId, lineId), eq(usageCounters.cycleStart, cycleStart), eq(usageCounters.type, "data")),
      );
    const used = Number(counter?.used ?? 0);
    if (dataMb !== null && dataMb < used)
      throw unprocessable(words("sharedPool.capBelowUsed", { used }), [
        { path: "dataMb", message: words("sharedPool.capBelowUsedField", { used }) },
      ]);
    await ctx.tx.update(lines).set({ dataCapMb: dataMb, updatedAt: new Date() }).where(eq(lines.id, lineId));
    await ctx.tx
      .delete(usageCaps)
      .where(
        and(
          eq(usageCaps.lineId, lineId),
          eq(usageCaps.cycleStart, cycleStart),
          eq(usageCaps.type, "data"),
          eq(usageCaps.reason, "line_cap"),
        ),
      );
    if (dataMb !== null && used >= dataMb) {
      const [stopped] = await ctx.tx
        .insert(usageCaps)
        .values({ lineId, cycleStart, type: "data", reason: "line_cap" })
        .onConflictDoNothing()
        .returning();
      // Stopped now: the line's member (or its holder) is told, once a cycle, as when usage reaches it.
      if (stopped) {
        const told = await tellCapped(ctx.tx, ctx.principal.operator, [stopped], await allowancesOf(ctx.tx, [lineId]));
        for (const event of told) ctx.effects.publish(event);
      }
    } else if (await poolUsedUp(ctx.tx, lineId, cycleStart))
      // Lifted from its own limit, the line still stops where its shared pool ran out.
      await ctx.tx.insert(usageCaps).values({ lineId, cycleStart, type: "data", reason: "pool" }).onConflictDoNothing();
    ctx.effects.publish({
      resource: "meters",
      type: "updated",
      ids: [lineId],
      ownerUids: ctx.row.ownerUid ? [ctx.row.ownerUid] : [],
    });
  },
};

/** The line is on a shared plan with no data rate past it, and its account's pool is used up this cycle. */
async function poolUsedUp(tx: Parameters<ActionHandler["run"]>[0]["tx"], lineId: string, cycleStart: string) {
  const [row] = await tx
    .select({ sharing: plans.sharing, dataMb: plans.dataMb, overage: plans.overage, used: usagePools.used })
    .from(lines)
    .innerJoin(plans, eq(plans.id, lines.planId))
    .innerJoin(accounts, eq(accounts.id, lines.accountId))
    .leftJoin(usagePools, and(eq(usagePools.accountId, accounts.id), eq(usagePools.cycleStart, cycleStart)))
    .where(eq(lines.id, lineId));
  if (!row || row.sharing !== "pool" || row.dataMb === null) return false;
  return Number(row.used ?? 0) >= row.dataMb && !rateOf(row.overage ?? null, "data", "home");
}
