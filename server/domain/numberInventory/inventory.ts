/**
 * The operator's number inventory (issue 28 item 1): small functions other modules call inside their
 * own transaction. Keep these names; other modules (porting) import them.
 *
 * - `freeNumbers(db, operator, areaCode, limit, heldBy)`: numbers anyone may pick now, and those
 *   `heldBy` holds (a dialog opened again offers the number its person picked a minute ago).
 * - `reserveNumber(tx, operator, msisdn, by)`: holds a number for `by` (a uid) for 15 minutes.
 * - `claimNumber(tx, operator, msisdn, by, lineId, path)`: assigns a free number, or one reserved by
 *   one of `by`, to a line (409 at `path` otherwise).
 * - `takeAnyFreeNumber(tx, operator, areaCode, lineId)`: assigns the first free number of the area
 *   code (any area code when null) to a line: a new line's temporary number while its own is ported in.
 *   Null when there is none.
 * - `quarantineNumber(tx, operator, msisdn)`: a number released by a cancellation or a change of
 *   number rests for 90 days before it is offered again.
 * - `releaseNumber(tx, operator, msisdn)`: back to free at once (a temporary number never used, say).
 * - `isOurNumber(tx, operator, msisdn)`: whether the operator already has it (on a line or in stock).
 * - `refusalsOf(db, operator, msisdns, by)` / `lockedRefusal(tx, operator, msisdn, by)`: why numbers
 *   may not be taken, without throwing (a CSV import lists them per row; its worker records them).
 *
 * A number is `free`, `reserved` (until `reserved_until`, for `reserved_by`), `assigned` (to
 * `line_id`) or `quarantined` (until `quarantined_until`). An expired reservation or quarantine is as
 * good as free: nothing has to run for a number to come back.
 */
import { and, asc, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import { QUARANTINE_DAYS, RESERVATION_MINUTES } from "#resources/numberInventory";
import type { Executor } from "../../audit";
import { lines, numberInventory } from "../../db/schema";
import { conflict } from "../../errors";
import { words, type WordsKey } from "../../i18n/words";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** "+12025551000" → "202". */
export const areaCodeOf = (msisdn: string) => msisdn.slice(2, 5);

/** Rows anyone may pick at `now`: free, or reserved or quarantined past their time. */
export const availableAt = (now: Date): SQL =>
  or(
    eq(numberInventory.status, "free"),
    and(eq(numberInventory.status, "reserved"), sql`${numberInventory.reservedUntil} <= ${now.toISOString()}`),
    and(eq(numberInventory.status, "quarantined"), sql`${numberInventory.quarantinedUntil} <= ${now.toISOString()}`),
  )!;

/** Free numbers of an area code, with those `heldBy` holds now, lowest first. */
export async function freeNumbers(db: Executor, operator: string, areaCode: string, limit: number, heldBy?: string) {
  const now = new Date();
  const held = heldBy
    ? and(
        eq(numberInventory.status, "reserved"),
        eq(numberInventory.reservedBy, heldBy),
        sql`${numberInventory.reservedUntil} > ${now.toISOString()}`,
      )
    : undefined;
  return await db
    .select({ msisdn: numberInventory.msisdn, areaCode: numberInventory.areaCode })
    .from(numberInventory)
    .where(
      and(
        eq(numberInventory.operatorCode, operator),
        eq(numberInventory.areaCode, areaCode),
        held ? or(availableAt(now), held) : availableAt(now),
      ),
    )
    .orderBy(asc(numberInventory.msisdn))
    .limit(limit);
}

type InventoryRow = typeof numberInventory.$inferSelect;

/** The number's row, locked; null when the operator has no such number in stock. */
async function lockedNumber(tx: Executor, operator: string, msisdn: string): Promise<InventoryRow | null> {
  const [row] = await tx
    .select()
    .from(numberInventory)
    .where(and(eq(numberInventory.operatorCode, operator), eq(numberInventory.msisdn, msisdn)))
    .for("update");
  return row ?? null;
}

/** Why a number cannot be taken: not in the operator's stock, in use, resting in quarantine, or held by another person. */
export type NumberRefusal = "notOurs" | "inUse" | "quarantined" | "reserved";

/** Each refusal's sentence and its short words at the field. */
const REFUSAL_WORDS: Record<NumberRefusal, { detail: WordsKey; field: WordsKey }> = {
  notOurs: { detail: "numbers.notOurs", field: "numbers.notOursField" },
  inUse: { detail: "numbers.inUse", field: "numbers.inUseField" },
  quarantined: { detail: "numbers.quarantined", field: "numbers.quarantinedField" },
  reserved: { detail: "numbers.reserved", field: "numbers.reservedField" },
};

/** What a refusal says at the field ("already in use"), for row errors that name the row and the field. */
export const refusalField = (refusal: NumberRefusal) => words(REFUSAL_WORDS[refusal].field);

/** Why one of `by` may not take the number now, or null when it is free or held for one of them. */
export function refusalOf(
  row: InventoryRow | null | undefined,
  by: readonly string[],
  now: Date,
): NumberRefusal | null {
  if (!row) return "notOurs";
  if (row.status === "assigned") return "inUse";
  if (row.status === "quarantined" && row.quarantinedUntil && row.quarantinedUntil > now) return "quarantined";
  if (
    row.status === "reserved" &&
    row.reservedUntil &&
    row.reservedUntil > now &&
    !(row.reservedBy && by.includes(row.reservedBy))
  )
    return "reserved";
  return null;
}

/** Refuses (409 at `path`) a number someone else holds: reserved by another person, quarantined or in use. */
function refuseUnavailable(row: InventoryRow | null, by: readonly string[], path: string, now: Date): void {
  const refusal = refusalOf(row, by, now);
  if (refusal)
    throw conflict(words(REFUSAL_WORDS[refusal].detail), [{ path, message: words(REFUSAL_WORDS[refusal].field) }]);
}

/** Why each of many numbers may not be taken by one of `by` now (absent: it may), in one read (a file's check). */
export async function refusalsOf(
  db: Executor,
  operator: string,
  msisdns: readonly string[],
  by: readonly string[],
): Promise<Map<string, NumberRefusal>> {
  const rows = msisdns.length
    ? await db
        .select()
        .from(numberInventory)
        .where(and(eq(numberInventory.operatorCode, operator), inArray(numberInventory.msisdn, [...msisdns])))
    : [];
  const found = new Map(rows.map((row) => [row.msisdn, row]));
  const now = new Date();
  const refusals = new Map<string, NumberRefusal>();
  for (const msisdn of msisdns) {
    const refusal = refusalOf(found.get(msisdn), by, now);
    if (refusal) refusals.set(msisdn, refusal);
  }
  return refusals;
}

/**
 * Why one of `by` may not take the number, with its row locked for the rest of the transaction
 * (so claimNumber after it cannot be refused), or null: for callers that record a refusal rather
 * than answer one (an import's row).
 */
export async function lockedRefusal(
  tx: Executor,
  operator: string,
  msisdn: string,
  by: readonly string[],
): Promise<NumberRefusal | null> {
  return refusalOf(await lockedNumber(tx, operator, msisdn), by, new Date());
}

/** Holds a number for `by` for RESERVATION_MINUTES (again from now when they hold it already). 409 when someone else does. */
export async function reserveNumber(
  tx: Executor,
  operator: string,
  msisdn: string,
  by: string,
  path = "msisdn",
): Promise<{ msisdn: string; areaCode: string; reservedUntil: Date }> {
  const now = new Date();
  const row = await lockedNumber(tx, operator, msisdn);
  refuseUnavailable(row, [by], path, now);
  const reservedUntil = new Date(now.getTime() + RESERVATION_MINUTES * MINUTE_MS);
  await tx
    .update(numberInventory)
    .set({ status: "reserved", reservedBy: by, reservedUntil, quarantinedUntil: null, lineId: null, updatedAt: now })
    .where(and(eq(numberInventory.operatorCode, operator), eq(numberInventory.msisdn, msisdn)));
  return { msisdn, areaCode: row!.areaCode, reservedUntil };
}

/** Assigns a free number, or one reserved by one of `by`, to a line; 409 at `path` otherwise. */
export async function claimNumber(
  tx: Executor,
  operator: string,
  msisdn: string,
  by: readonly string[],
  lineId: string | null,
  path = "msisdn",
): Promise<void> {
  const now = new Date();
  refuseUnavailable(await lockedNumber(tx, operator, msisdn), by, path, now);
  await tx
    .update(numberInventory)
    .set({
      status: "assigned",
      lineId,
      reservedBy: null,
      reservedUntil: null,
      quarantinedUntil: null,
      updatedAt: now,
    })
    .where(and(eq(numberInventory.operatorCode, operator), eq(numberInventory.msisdn, msisdn)));
}

/** Whether a number is free, or reserved by one of `by`, without changing anything (a preview's check). */
export async function checkNumberAvailable(
  db: Executor,
  operator: string,
  msisdn: string,
  by: readonly string[],
  path = "msisdn",
): Promise<void> {
  const [row] = await db
    .select()
    .from(numberInventory)
    .where(and(eq(numberInventory.operatorCode, operator), eq(numberInventory.msisdn, msisdn)));
  refuseUnavailable(row ?? null, by, path, new Date());
}

/** Assigns the first free number of the area code (any when null) to a line; null when there is none. */
export async function takeAnyFreeNumber(
  tx: Executor,
  operator: string,
  areaCode: string | null,
  lineId: string | null = null,
): Promise<string | null> {
  const now = new Date();
  const [row] = await tx
    .select({ msisdn: numberInventory.msisdn })
    .from(numberInventory)
    .where(
      and(
        eq(numberInventory.operatorCode, operator),
        areaCode ? eq(numberInventory.areaCode, areaCode) : undefined,
        availableAt(now),
      ),
    )
    .orderBy(asc(numberInventory.msisdn))
    .limit(1)
    .for("update", { skipLocked: true });
  if (!row) return null;
  await tx
    .update(numberInventory)
    .set({ status: "assigned", lineId, reservedBy: null, reservedUntil: null, quarantinedUntil: null, updatedAt: now })
    .where(and(eq(numberInventory.operatorCode, operator), eq(numberInventory.msisdn, row.msisdn)));
  return row.msisdn;
}

/** Puts a number back in the operator's stock, in or out of quarantine, holding it for no one (added if it was never in stock). */
async function returnToStock(tx: Executor, operator: string, msisdn: string, quarantinedUntil: Date | null) {
  const values = {
    status: quarantinedUntil ? ("quarantined" as const) : ("free" as const),
    quarantinedUntil,
    reservedBy: null,
    reservedUntil: null,
    lineId: null,
  };
  await tx
    .insert(numberInventory)
    .values({ operatorCode: operator, msisdn, areaCode: areaCodeOf(msisdn), ...values })
    .onConflictDoUpdate({
      target: [numberInventory.operatorCode, numberInventory.msisdn],
      set: { ...values, updatedAt: new Date() },
    });
}

/** Puts a number (in stock or not: a seeded line's number joins the stock here) in quarantine for QUARANTINE_DAYS. */
export async function quarantineNumber(tx: Executor, operator: string, msisdn: string): Promise<Date> {
  const quarantinedUntil = new Date(Date.now() + QUARANTINE_DAYS * DAY_MS);
  await returnToStock(tx, operator, msisdn, quarantinedUntil);
  return quarantinedUntil;
}

/** Back to free at once (a number that was never in anyone's hands, such as an unused temporary number). */
export async function releaseNumber(tx: Executor, operator: string, msisdn: string): Promise<void> {
  await returnToStock(tx, operator, msisdn, null);
}

/** Whether the operator already has the number: on a line not terminated, or in its stock (in any state). */
export async function isOurNumber(db: Executor, operator: string, msisdn: string): Promise<boolean> {
  const [line] = await db
    .select({ id: lines.id })
    .from(lines)
    .where(and(eq(lines.operatorCode, operator), eq(lines.msisdn, msisdn), ne(lines.status, "terminated")))
    .limit(1);
  if (line) return true;
  const [stock] = await db
    .select({ msisdn: numberInventory.msisdn })
    .from(numberInventory)
    .where(and(eq(numberInventory.operatorCode, operator), inArray(numberInventory.msisdn, [msisdn])))
    .limit(1);
  return Boolean(stock);
}
