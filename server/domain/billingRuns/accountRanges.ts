import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/**
 * A slice of the account id space, so that a day's work can be shared among workers (issue 30):
 * ids from `from` (inclusive) up to `to` (exclusive; null: to the last id). Ids are random UUIDs,
 * so equal slices of the space hold about as many accounts each.
 */
export interface AccountRange {
  from: string;
  to: string | null;
}

/** The UUID at a fraction of the space: its first 32 bits, the rest zeros (UUIDs compare bytewise). */
const uuidAt = (index: number, parts: number) =>
  `${Math.floor((index * 2 ** 32) / parts)
    .toString(16)
    .padStart(8, "0")}-0000-0000-0000-000000000000`;

/** The id space cut into `parts` slices that cover it once, in order. */
export function accountRanges(parts: number): AccountRange[] {
  if (!Number.isInteger(parts) || parts < 1 || parts > 4096)
    throw new Error("parts takes a whole number from 1 to 4096");
  return Array.from({ length: parts }, (_, i) => ({
    from: uuidAt(i, parts),
    to: i + 1 < parts ? uuidAt(i + 1, parts) : null,
  }));
}

/** The condition "this account id is in the range" (none when there is no range: every account). */
export function inAccountRange(column: AnyPgColumn | SQL, range: AccountRange | undefined): SQL | undefined {
  if (!range) return undefined;
  return range.to === null
    ? sql`${column} >= ${range.from}::uuid`
    : sql`(${column} >= ${range.from}::uuid and ${column} < ${range.to}::uuid)`;
}
