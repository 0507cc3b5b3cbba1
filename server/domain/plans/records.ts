import { eq, ilike, or } from "drizzle-orm";
import type { Plan } from "#resources/plans";
import { plans } from "../../db/schema";
import { escapeLike } from "../../lib/sql";
import type { DomainModule } from "../../engine/types";
import { tableSource } from "../tableSource";
import type { PlanRow } from "./priceChange";

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
  translations: row.translations,
  overage: row.overage ?? null,
  sharing: row.sharing,
  pendingPrice: row.pendingPriceAmount === null ? null : { amount: row.pendingPriceAmount, currency: row.currency },
  priceChangedAt: row.priceChangedAt?.toISOString() ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/**
 * How plans are read, without their routes: ./routes.ts finds a plan through this and ./module.ts
 * adds the routes, so neither imports the other. Subscribers see only what is on sale.
 */
export const planRecords: DomainModule<PlanRow> = {
  source: tableSource({
    table: plans,
    forSubscribers: eq(plans.status, "active"),
    columns: {
      name: plans.name,
      code: plans.code,
      kind: plans.kind,
      status: plans.status,
      price: plans.priceAmount,
      dataMb: plans.dataMb,
      createdAt: plans.createdAt,
    },
    search: (q) => or(ilike(plans.name, `%${escapeLike(q)}%`), ilike(plans.code, `%${escapeLike(q)}%`)),
    toRecord: toPlan,
  }),
};
