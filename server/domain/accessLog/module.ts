import { getTableColumns, sql } from "drizzle-orm";
import type { StaffRead } from "#resources/staffReads";
import { staffReads } from "../../db/schema";
import type { DomainModule } from "../../engine/types";
import { tableSource } from "../tableSource";

type StaffReadRow = typeof staffReads.$inferSelect & { staffName: string | null; subscriberName: string | null };

// Names looked up when read (a renamed person reads with the new name), inside the row's operator.
const staffName = sql<string | null>`(select coalesce(s.display_name, s.email) from staff_members s
  where s.uid = "staff_reads"."staff_uid" and s.operator_code = "staff_reads"."operator_code")`;
const subscriberName = sql<string | null>`(select a.name from accounts a
  where a.owner_uid = "staff_reads"."subscriber_uid" and a.operator_code = "staff_reads"."operator_code"
  order by a.created_at, a.id limit 1)`;

/** The access log for admins (GET /staff-reads): read-only, written by logStaffRead (./accessLog.ts). */
export const staffReadsModule: DomainModule<StaffReadRow> = {
  source: tableSource({
    table: staffReads,
    selection: { ...getTableColumns(staffReads), staffName, subscriberName },
    columns: {
      readAt: staffReads.readAt,
      staffUid: staffReads.staffUid,
      subscriberUid: staffReads.subscriberUid,
      section: staffReads.section,
    },
    toRecord: (row): StaffRead => ({
      id: row.id,
      readAt: row.readAt.toISOString(),
      staffUid: row.staffUid,
      staffName: row.staffName,
      staffRole: row.staffRole,
      subscriberUid: row.subscriberUid,
      subscriberName: row.subscriberName,
      section: row.section,
    }),
  }),
};
