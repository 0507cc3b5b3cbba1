import { eq } from "drizzle-orm";
import type { Order } from "#resources/orders";
import { lines, orders } from "../../db/schema";
import type { DomainModule } from "../../engine/types";
import { tableSource, withoutOwner } from "../tableSource";

const selection = {
  id: orders.id,
  accountId: orders.accountId,
  lineId: orders.lineId,
  msisdn: lines.msisdn,
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

/** An order's details as answered: a port-in's sealed transfer PIN never leaves the server. */
function withoutSecrets(details: Record<string, unknown>): Record<string, unknown> {
  const portIn = details.portIn as Record<string, unknown> | undefined;
  if (!portIn || typeof portIn !== "object" || !("transferPinCipher" in portIn)) return details;
  const shown = { ...portIn };
  delete shown.transferPinCipher;
  return { ...details, portIn: shown };
}

/** Orders of the operator; a subscriber's are those of accounts they own. */
export const ordersModule: DomainModule<OrderRow> = {
  source: tableSource({
    table: orders,
    selection,
    account: orders.accountId,
    line: orders.lineId,
    joins: (query) => query.leftJoin(lines, eq(orders.lineId, lines.id)),
    columns: {
      state: orders.state,
      type: orders.type,
      lineId: orders.lineId,
      accountId: orders.accountId,
      createdAt: orders.createdAt,
      updatedAt: orders.updatedAt,
    },
    toRecord: (row) => ({
      ...withoutOwner(row),
      details: withoutSecrets(row.details),
      idDocumentFileId: typeof row.details.idDocumentFileId === "string" ? row.details.idDocumentFileId : null,
      scheduledFor: row.scheduledFor ? row.scheduledFor.toISOString() : null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    }),
  }),
};
