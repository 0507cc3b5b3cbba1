import { eq, sql } from "drizzle-orm";
import { RECORD_UNITS } from "#resources/usage";
import type { UsageRecord } from "#resources/usageRecords";
import { lines, usageRecords } from "../../db/schema";
import type { DomainModule } from "../../engine/types";
import { tableSource } from "../tableSource";

const roaming = sql<boolean>`(${usageRecords.roamingZone} is not null)`;

const selection = {
  id: usageRecords.id,
  lineId: usageRecords.lineId,
  msisdn: lines.msisdn,
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

/** Usage records of the operator's lines (read-only); a subscriber's are those of lines of accounts they own. */
export const usageRecordsModule: DomainModule<UsageRecordRow> = {
  source: tableSource({
    table: usageRecords,
    selection,
    // A record's account is its line's.
    joins: (query) => query.innerJoin(lines, eq(usageRecords.lineId, lines.id)),
    account: lines.accountId,
    line: usageRecords.lineId,
    columns: {
      lineId: usageRecords.lineId,
      type: usageRecords.type,
      startedAt: usageRecords.startedAt,
      quantity: usageRecords.quantity,
      roaming,
      roamingZone: usageRecords.roamingZone,
      cycleStart: usageRecords.cycleStart,
    },
    // Field by field rather than a rest copy and a spread (two generic copies of every row of a
    // usage history page; see toLine).
    toRecord: (row): UsageRecord => ({
      id: row.id,
      lineId: row.lineId,
      msisdn: row.msisdn,
      type: row.type,
      startedAt: row.startedAt.toISOString(),
      quantity: row.quantity,
      unit: RECORD_UNITS[row.type],
      roaming: Boolean(row.roaming),
      roamingZone: row.roamingZone,
      cycleStart: row.cycleStart,
      receivedAt: row.receivedAt.toISOString(),
    }),
  }),
};
