import type { FastifyBaseLogger } from "fastify";
import { and, count, desc, eq, sql } from "drizzle-orm";
import { ACCESS_LOG_WINDOW_MINUTES, teamOfRole, type AccessLogEntry } from "#resources/accessLog";
import { isStaff, type Principal } from "#resources/access";
import type { StaffRole } from "#resources/staff";
import type { Executor } from "../../audit";
import type { Db } from "../../db/client";
import { staffMembers, staffReads } from "../../db/schema";
import { unavailable } from "../../errors";
import { words } from "../../i18n/words";

export interface StaffRead {
  operator: string;
  staffUid: string;
  staffRole: StaffRole;
  /** The subscribers whose data was read (the rows' owners); none: nothing to log. */
  subscriberUids: readonly string[];
  /** The resource read, or a 360 section no resource serves. */
  section: string;
  requestId?: string;
}

/**
 * Logs one staff read for each subscriber, unless the same staff member already read the same
 * section of that subscriber in the last 10 minutes (a sliding window). Race-free: the check and the
 * insert run under a transaction-scoped advisory lock on (operator, staff, subscriber, section), so
 * parallel reads wait for each other and the second sees the first's row (each statement of a
 * READ COMMITTED transaction reads what committed before it). Cheap: one lock and one insert per
 * subscriber (one for every read the engine logs), on the window index.
 *
 * Fails closed: when the row cannot be written it logs the error and throws 503, so the caller
 * answers that instead of the data and no staff read goes unrecorded (docs/decisions.md).
 */
export async function logStaffRead(db: Db, read: StaffRead, log?: FastifyBaseLogger): Promise<void> {
  const owners = [...new Set(read.subscriberUids)].filter(Boolean).sort();
  if (!owners.length) return;
  try {
    await insertReads(db, read, owners);
  } catch (error) {
    log?.error({ err: error, section: read.section }, "staff read not logged: the data is not answered");
    throw unavailable(words("accessLog.notRecorded"));
  }
}

/**
 * The request's read of `section` for `subscriberUids`, logged when a staff member made it (a
 * subscriber reading their own data is not a visit). What every route that answers subscriber data calls.
 */
export async function logReadOf(
  db: Db,
  request: { principal: Principal; id: string; log: FastifyBaseLogger },
  section: string,
  subscriberUids: readonly string[],
): Promise<void> {
  const { principal } = request;
  if (!isStaff(principal.role) || !subscriberUids.length) return;
  await logStaffRead(
    db,
    {
      operator: principal.operator,
      staffUid: principal.uid,
      staffRole: principal.role,
      subscriberUids,
      section,
      requestId: request.id,
    },
    request.log,
  );
}

/**
 * Whose data a list showed, for the log. A list is a read of one subscriber's data when it is
 * narrowed by a filter and every row it answers belongs to that one subscriber (the 360's sections:
 * the bills of one account, the usage of its lines). A list of several subscribers' rows (a search,
 * a queue) is a list of names to pick from, not a read of anyone's data: not logged; the record then
 * opened (show) is. An unfiltered list is never a read of one person's data either.
 */
export function ownerOfNarrowedList(filtered: boolean, rowOwners: readonly (readonly string[])[]): string[] {
  if (!filtered) return [];
  const owners = new Set(rowOwners.flat());
  return owners.size === 1 ? [...owners] : [];
}

async function insertReads(db: Db, read: StaffRead, owners: string[]): Promise<void> {
  await db.transaction(async (tx) => {
    // Sorted, so two reads of the same owners lock in the same order.
    for (const subscriberUid of owners) {
      const key = `staff-read:${read.operator}:${read.staffUid}:${subscriberUid}:${read.section}`;
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
      await tx.execute(sql`
        insert into staff_reads (operator_code, staff_uid, staff_role, subscriber_uid, section, request_id)
        select ${read.operator}, ${read.staffUid}, ${read.staffRole}, ${subscriberUid}, ${read.section}, ${read.requestId ?? null}
        where not exists (
          select 1 from staff_reads r
          where r.operator_code = ${read.operator} and r.staff_uid = ${read.staffUid}
            and r.subscriber_uid = ${subscriberUid} and r.section = ${read.section}
            and r.read_at > now() - make_interval(mins => ${ACCESS_LOG_WINDOW_MINUTES}))`);
    }
  });
}

/**
 * "Casey Agent" → "Casey A.": enough for a subscriber to know who it was, not the staff member's
 * full name. Null without a name (or with one that is an email address: never shown).
 */
export function shortStaffName(displayName: string | null | undefined): string | null {
  const words = displayName?.trim().split(/\s+/).filter(Boolean) ?? [];
  if (!words.length || words.some((w) => w.includes("@"))) return null;
  if (words.length === 1) return words[0]!;
  const initial = [...words.at(-1)!][0]!.toLocaleUpperCase();
  return `${words[0]} ${initial}.`;
}

/** The subscriber's own visits, newest first, with each staff member's short name and team; never an email or uid. */
export async function accessLogOf(
  db: Executor,
  who: { operator: string; uid: string },
  page: { page: number; pageSize: number },
): Promise<{ data: AccessLogEntry[]; total: number }> {
  const mine = and(eq(staffReads.operatorCode, who.operator), eq(staffReads.subscriberUid, who.uid));
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: staffReads.id,
        readAt: staffReads.readAt,
        staffRole: staffReads.staffRole,
        section: staffReads.section,
        displayName: staffMembers.displayName,
      })
      .from(staffReads)
      .leftJoin(
        staffMembers,
        and(eq(staffMembers.uid, staffReads.staffUid), eq(staffMembers.operatorCode, staffReads.operatorCode)),
      )
      .where(mine)
      .orderBy(desc(staffReads.readAt), desc(staffReads.id))
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize),
    db.select({ total: count() }).from(staffReads).where(mine),
  ]);
  return {
    data: rows.map((row) => ({
      id: row.id,
      at: row.readAt.toISOString(),
      staffName: shortStaffName(row.displayName),
      team: teamOfRole(row.staffRole),
      section: row.section,
    })),
    total: Number(totals?.total ?? 0),
  };
}
