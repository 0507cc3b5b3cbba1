import { and, count, eq, sql } from "drizzle-orm";
import { RECORD_UNITS } from "#resources/usage";
import type { UsageRecord } from "#resources/usageRecords";
import type { Executor } from "../../audit";
import { accounts, lines, usageRecords } from "../../db/schema";
import type { DomainModule } from "../../engine/types";

const roaming = sql<boolean>`(${usageRecords.roamingZone} is not null)`;

const selection = {
  id: usageRecords.id,
  lineId: usageRecords.lineId,
  msisdn: lines.msisdn,
  ownerUid: accounts.ownerUid,
  type: usageRecords.type,
  startedAt: usageRecords.startedAt,
  quantity: usageRecords.quantity,
  roaming,
  roamingZone: usageRecords.roamingZone,
  cycleStart: usageRecords.cycleStart,
  receivedAt: usageRecords.receivedAt,
};

type UsageRecordRow = Omit<UsageRecord, "startedAt" | "receivedAt" | "unit"> & {
  ownerUid: string | null;
  startedAt: Date;
  receivedAt: Date;
};

const joined = (query: any) =>
  query.innerJoin(lines, eq(usageRecords.lineId, lines.id)).innerJoin(accounts, eq(lines.accountId, accounts.id));

/** Usage records of the operator's lines (read-only); a subscriber's are those of lines of accounts they own. */
export const usageRecordsModule: DomainModule<UsageRecordRow> = {
  source: {
    rows: (db: Executor) => joined(db.select(selection).from(usageRecords)).$dynamic(),
    count: (db: Executor) => joined(db.select({ total: count() }).from(usageRecords)).$dynamic(),
    id: usageRecords.id,
    table: usageRecords,
    columns: {
      lineId: usageRecords.lineId,
      type: usageRecords.type,
      startedAt: usageRecords.startedAt,
      quantity: usageRecords.quantity,
      roaming,
      roamingZone: usageRecords.roamingZone,
      cycleStart: usageRecords.cycleStart,
    },
    scope(principal, scope) {
      const sameOperator = eq(usageRecords.operatorCode, principal.operator);
      return scope === "all" ? sameOperator : and(sameOperator, eq(accounts.ownerUid, principal.uid))!;
    },
    toRecord: ({ ownerUid: _owner, ...row }) => ({
      ...row,
      unit: RECORD_UNITS[row.type],
      roaming: Boolean(row.roaming),
      startedAt: row.startedAt.toISOString(),
      receivedAt: row.receivedAt.toISOString(),
    }),
    ownerUids: (row) => (row.ownerUid ? [row.ownerUid] : []),
  },
};
