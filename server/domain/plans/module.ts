import { and, count, eq, ilike, or } from "drizzle-orm";
import type { Plan } from "../../../src/resources/plans";
import type { Executor } from "../../audit";
import { plans } from "../../db/schema";
import { escapeLike } from "../../lib/sql";
import type { DomainModule } from "../../engine/types";

type PlanRow = typeof plans.$inferSelect;

export const toPlan = (row: PlanRow): Plan => ({
  id: row.id,
  code: row.code,
  name: row.name,
  kind: row.kind,
  status: row.status,
  price: { amount: row.priceAmount, currency: row.currency },
  period: row.period,
  dataMb: row.dataMb,
  voiceMinutes: row.voiceMinutes,
  sms: row.sms,
  features: row.features,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** The operator's catalog: open to every signed-in role; subscribers see only what is on sale (not drafts, not retired plans). */
export const plansModule: DomainModule<PlanRow> = {
  source: {
    rows: (db: Executor) => db.select().from(plans).$dynamic(),
    count: (db: Executor) => db.select({ total: count() }).from(plans).$dynamic(),
    id: plans.id,
    table: plans,
    columns: {
      name: plans.name,
      code: plans.code,
      kind: plans.kind,
      status: plans.status,
      price: plans.priceAmount,
      dataMb: plans.dataMb,
      createdAt: plans.createdAt,
    },
    scope(principal) {
      const sameOperator = eq(plans.operatorCode, principal.operator);
      return principal.role === "subscriber" ? and(sameOperator, eq(plans.status, "active"))! : sameOperator;
    },
    search: (q) => or(ilike(plans.name, `%${escapeLike(q)}%`), ilike(plans.code, `%${escapeLike(q)}%`)),
    toRecord: toPlan,
    ownerUids: () => [],
  },
};
