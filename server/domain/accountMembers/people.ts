import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { Executor } from "../../audit";
import { accountMemberLines, accountMembers } from "../../db/schema";

/** A person on an account who joined (issue 28): who they are and where their email goes. */
export interface AccountPerson {
  uid: string;
  email: string;
}

/**
 * The managers who joined each of the accounts (invited ones have no uid yet, so nobody to tell):
 * the people besides the holder told about the whole account (a shared pool's alerts).
 */
export async function managersOf(db: Executor, accountIds: readonly string[]): Promise<Map<string, AccountPerson[]>> {
  const found = new Map<string, AccountPerson[]>();
  if (accountIds.length === 0) return found;
  const rows = await db
    .select({ accountId: accountMembers.accountId, uid: accountMembers.memberUid, email: accountMembers.email })
    .from(accountMembers)
    .where(
      and(
        inArray(accountMembers.accountId, [...accountIds]),
        eq(accountMembers.role, "manager"),
        isNotNull(accountMembers.memberUid),
      ),
    );
  for (const row of rows)
    (found.get(row.accountId) ?? found.set(row.accountId, []).get(row.accountId)!).push({
      uid: row.uid!,
      email: row.email,
    });
  return found;
}

/** The members who joined and were given each of the lines: the people told about that line alone. */
export async function lineMembersOf(db: Executor, lineIds: readonly string[]): Promise<Map<string, AccountPerson[]>> {
  const found = new Map<string, AccountPerson[]>();
  if (lineIds.length === 0) return found;
  const rows = await db
    .select({ lineId: accountMemberLines.lineId, uid: accountMembers.memberUid, email: accountMembers.email })
    .from(accountMemberLines)
    .innerJoin(accountMembers, eq(accountMembers.id, accountMemberLines.memberId))
    .where(
      and(
        inArray(accountMemberLines.lineId, [...lineIds]),
        eq(accountMembers.role, "member"),
        isNotNull(accountMembers.memberUid),
      ),
    );
  for (const row of rows)
    (found.get(row.lineId) ?? found.set(row.lineId, []).get(row.lineId)!).push({ uid: row.uid!, email: row.email });
  return found;
}
