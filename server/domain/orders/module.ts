import { and, count, eq } from "drizzle-orm";
import type { Order } from "#resources/orders";
import type { Executor } from "../../audit";
import { accounts, lines, orders } from "../../db/schema";
import type { DomainModule } from "../../engine/types";

const selection = {
  id: orders.id,
  accountId: orders.accountId,
  lineId: orders.lineId,
  msisdn: lines.msisdn,
  ownerUid: accounts.ownerUid,
  type: orders.type,
  state: orders.state,
  effective: orders.effective,
  scheduledFor: orders.scheduledFor,
  details: orders.details,
  timeline: orders.timeline,
  requestedByRole: orders.requestedByRole,
  reason: orders.reason,
  createdAt: orders.createdAt,
  updatedAt: orders.updatedAt,
};

export type OrderRow = Omit<Order, "scheduledFor" | "createdAt" | "updatedAt" | "idDocumentFileId"> & {
  ownerUid: string | null;
  scheduledFor: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

const joined = (query: any) =>
  query.innerJoin(accounts, eq(orders.accountId, accounts.id)).leftJoin(lines, eq(orders.lineId, lines.id));

/** Orders of the operator; a subscriber's are those of accounts they own. */
export const ordersModule: DomainModule<OrderRow> = {
  source: {
    rows: (db: Executor) => joined(db.select(selection).from(orders)).$dynamic(),
    count: (db: Executor) => joined(db.select({ total: count() }).from(orders)).$dynamic(),
    id: orders.id,
    table: orders,
    columns: {
      state: orders.state,
      type: orders.type,
      lineId: orders.lineId,
      accountId: orders.accountId,
      createdAt: orders.createdAt,
      updatedAt: orders.updatedAt,
    },
    scope(principal, scope) {
      const sameOperator = eq(orders.operatorCode, principal.operator);
      return scope === "all" ? sameOperator : and(sameOperator, eq(accounts.ownerUid, principal.uid))!;
    },
    toRecord: ({ ownerUid: _owner, ...row }) => ({
      ...row,
      idDocumentFileId: typeof row.details.idDocumentFileId === "string" ? row.details.idDocumentFileId : null,
      scheduledFor: row.scheduledFor ? row.scheduledFor.toISOString() : null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    }),
    ownerUids: (row) => (row.ownerUid ? [row.ownerUid] : []),
  },
};
