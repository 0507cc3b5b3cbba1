import { topUps } from "../../db/schema";
import type { DomainModule } from "../../engine/types";
import { tableSource } from "../tableSource";
import { toTopUp, type TopUpRow } from "./records";
import { topUpRoutes } from "./routes";

export type { TopUpRow } from "./records";

/**
 * Card top-ups: a subscriber's are those of the accounts they own; staff read all of their
 * operator's. Created by the module's own route (`POST /top-ups`, it calls the gateway between
 * transactions); settled by the charge's answer or the gateway's webhook (./settle.ts).
 */
export const topUpsModule: DomainModule<TopUpRow> = {
  source: tableSource({
    table: topUps,
    account: topUps.accountId,
    columns: {
      accountId: topUps.accountId,
      status: topUps.status,
      refund: topUps.refund,
      createdAt: topUps.createdAt,
      updatedAt: topUps.updatedAt,
    },
    toRecord: toTopUp,
  }),
  extraRoutes: topUpRoutes,
};
