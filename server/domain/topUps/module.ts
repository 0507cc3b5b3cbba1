import { and, count, eq } from "drizzle-orm";
import type { Executor } from "../../audit";
import { accounts, topUps } from "../../db/schema";
import type { DomainModule } from "../../engine/types";
import { toTopUp, topUpSelection, type TopUpRow } from "./records";
import { topUpRoutes } from "./routes";

export type { TopUpRow } from "./records";

/**
 * Card top-ups: a subscriber's are those of the accounts they own; staff read all of their
 * operator's. Created by the module's own route (`POST /top-ups`, it calls the gateway between
 * transactions); settled by the charge's answer or the gateway's webhook (./settle.ts).
 */
export const topUpsModule: DomainModule<TopUpRow> = {
  source: {
    rows: (db: Executor) =>
      db.select(topUpSelection).from(topUps).innerJoin(accounts, eq(accounts.id, topUps.accountId)).$dynamic(),
    count: (db: Executor) =>
      db.select({ total: count() }).from(topUps).innerJoin(accounts, eq(accounts.id, topUps.accountId)).$dynamic(),
    id: topUps.id,
    table: topUps,
    columns: {
      accountId: topUps.accountId,
      status: topUps.status,
      refund: topUps.refund,
      createdAt: topUps.createdAt,
      updatedAt: topUps.updatedAt,
    },
    scope(principal, scope) {
      const sameOperator = eq(topUps.operatorCode, principal.operator);
      return scope === "all" ? sameOperator : and(sameOperator, eq(accounts.ownerUid, principal.uid))!;
    },
    toRecord: toTopUp,
    ownerUids: (row) => (row.ownerUid ? [row.ownerUid] : []),
  },
  extraRoutes: topUpRoutes,
};
