import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { Executor } from "../../audit";
import { addOnPurchases } from "../../db/schema";

/** Extra data MB by line from add-ons counting at `now` (one query). */
export async function addOnDataOf(
  db: Executor,
  lineIds: readonly string[],
  now = new Date(),
): Promise<Map<string, number>> {
  if (lineIds.length === 0) return new Map();
  const rows = await db
    .select({ lineId: addOnPurchases.lineId, mb: sql<string>`sum(${addOnPurchases.dataMb})` })
    .from(addOnPurchases)
    .where(
      and(
        sql`${addOnPurchases.lineId} = any(${sql.param([...lineIds])}::uuid[])`,
        eq(addOnPurchases.status, "active"),
        lte(addOnPurchases.startsAt, now),
        gt(addOnPurchases.expiresAt, now),
      ),
    )
    .groupBy(addOnPurchases.lineId);
  return new Map(rows.map((r) => [r.lineId, Number(r.mb)]));
}
