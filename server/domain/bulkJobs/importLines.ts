import { and, eq, inArray } from "drizzle-orm";
import { IMPORT_COLUMNS, importRowSchema, MAX_IMPORT_ROWS, type ImportRow } from "#resources/bulkJobs";
import type { Executor } from "../../audit";
import { accounts, lines, plans } from "../../db/schema";
import { badRequest } from "../../errors";
import { validationText } from "../../i18n/validationText";
import { textIn, words, type Text } from "../../i18n/words";
import { CsvUnreadable, parseCsv } from "../../lib/csv";
import { claimNumber, lockedRefusal, refusalField, refusalsOf } from "../numberInventory/inventory";

export interface RowError {
  row: number;
  field: string;
  /** Worded when used: in the request's language for a dry run, in English on a job's stored items. */
  message: Text;
}
export interface CheckedRow {
  row: number;
  data: ImportRow | null;
  errors: RowError[];
}

/**
 * Every row of an import checked before anything is written: the cells (format), then against the
 * operator's data (the account and plan exist, the number and the SIM are not in use, the number is
 * one of the operator's stock that is free or held for the importer: issue 28) and against the
 * file's other rows (no number or SIM twice). A file that cannot be read at all is a 400 on `csv`.
 */
export async function checkImport(
  db: Executor,
  operator: string,
  csv: string,
  /** Who imports: a number they reserved is theirs to use. */
  importer: string,
): Promise<CheckedRow[]> {
  let records: string[][];
  try {
    records = parseCsv(csv).filter((r) => r.some((cell) => cell.trim() !== ""));
  } catch (error) {
    if (!(error instanceof CsvUnreadable)) throw error;
    throw badRequest(words("bulkJobs.csvUnreadable", { reason: error.reason }), [
      { path: "csv", message: error.reason },
    ]);
  }
  const [header, ...body] = records;
  const columns = (header ?? []).map((c) => c.trim());
  const missing = IMPORT_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length)
    throw badRequest(words("bulkJobs.headerColumns", { columns: IMPORT_COLUMNS.join(", ") }), [
      { path: "csv", message: words("bulkJobs.field.missingColumns", { columns: missing.join(", ") }) },
    ]);
  if (body.length === 0)
    throw badRequest(words("bulkJobs.noRows"), [{ path: "csv", message: words("bulkJobs.field.noRows") }]);
  if (body.length > MAX_IMPORT_ROWS)
    // A string, not a number: "5000" as today, not "5,000".
    throw badRequest(words("bulkJobs.tooManyRows", { max: String(MAX_IMPORT_ROWS) }), [
      { path: "csv", message: words("bulkJobs.field.tooManyRows", { max: String(MAX_IMPORT_ROWS) }) },
    ]);

  const checked: CheckedRow[] = body.map((cells, i) => {
    const row = i + 2; // the header is row 1
    const values = Object.fromEntries(IMPORT_COLUMNS.map((c) => [c, (cells[columns.indexOf(c)] ?? "").trim()]));
    const parsed = importRowSchema.safeParse(values);
    if (parsed.success) return { row, data: parsed.data, errors: [] };
    return {
      row,
      data: null,
      errors: parsed.error.issues.map((issue) => ({
        row,
        field: String(issue.path[0] ?? "row"),
        message: (locale) => validationText(issue, locale),
      })),
    };
  });

  const good = checked.filter((c) => c.data);
  const ids = (pick: (r: ImportRow) => string) => [...new Set(good.map((c) => pick(c.data!)))];
  const known = async <T>(query: Promise<T[]>, pick: (t: T) => string) => new Set((await query).map(pick));
  const accountIds = good.length
    ? await known(
        db
          .select({ id: accounts.id })
          .from(accounts)
          .where(
            and(
              eq(accounts.operatorCode, operator),
              inArray(
                accounts.id,
                ids((r) => r.accountId),
              ),
            ),
          ),
        (a) => a.id,
      )
    : new Set<string>();
  const planIds = good.length
    ? await known(
        db
          .select({ id: plans.id })
          .from(plans)
          .where(
            and(
              eq(plans.operatorCode, operator),
              inArray(
                plans.id,
                ids((r) => r.planId),
              ),
            ),
          ),
        (p) => p.id,
      )
    : new Set<string>();
  const usedNumbers = good.length
    ? await known(
        db
          .select({ v: lines.msisdn })
          .from(lines)
          .where(
            and(
              eq(lines.operatorCode, operator),
              inArray(
                lines.msisdn,
                ids((r) => r.msisdn),
              ),
            ),
          ),
        (l) => l.v,
      )
    : new Set<string>();
  const usedSims = good.length
    ? await known(
        db
          .select({ v: lines.iccid })
          .from(lines)
          .where(
            inArray(
              lines.iccid,
              ids((r) => r.iccid),
            ),
          ),
        (l) => l.v ?? "",
      )
    : new Set<string>();
  const stock = await refusalsOf(
    db,
    operator,
    ids((r) => r.msisdn),
    [importer],
  );
  const seenNumbers = new Map<string, number>();
  const seenSims = new Map<string, number>();
  for (const c of good) {
    const r = c.data!;
    const fail = (field: string, message: Text) => c.errors.push({ row: c.row, field, message });
    // Row numbers as strings: "row 1234" as today, not "1,234".
    const alsoIn = (row: number | undefined) => words("bulkJobs.row.alsoInRow", { row: String(row) });
    if (!accountIds.has(r.accountId)) fail("accountId", words("bulkJobs.row.noSuchAccount"));
    if (!planIds.has(r.planId)) fail("planId", words("bulkJobs.row.noSuchPlan"));
    const refusal = stock.get(r.msisdn);
    if (usedNumbers.has(r.msisdn)) fail("msisdn", words("bulkJobs.row.numberInUse"));
    else if (refusal) fail("msisdn", refusalField(refusal));
    else if (seenNumbers.has(r.msisdn)) fail("msisdn", alsoIn(seenNumbers.get(r.msisdn)));
    if (usedSims.has(r.iccid)) fail("iccid", words("bulkJobs.row.simInUse"));
    else if (seenSims.has(r.iccid)) fail("iccid", alsoIn(seenSims.get(r.iccid)));
    seenNumbers.set(r.msisdn, seenNumbers.get(r.msisdn) ?? c.row);
    seenSims.set(r.iccid, seenSims.get(r.iccid) ?? c.row);
    if (c.errors.length) c.data = null;
  }
  return checked;
}

/**
 * Creates one imported line, after checking again what may have changed since the job was queued;
 * answers an error or the line. Its number leaves the stock in the same transaction (in use by the
 * line), so it is never offered again; a number someone took meanwhile fails the row instead.
 */
export async function createImportedLine(
  tx: Executor,
  operator: string,
  r: ImportRow,
  importer: string,
): Promise<{ id: string } | { error: string }> {
  const [account] = await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.id, r.accountId), eq(accounts.operatorCode, operator)));
  if (!account) return { error: "accountId: no such account" };
  const [plan] = await tx
    .select({ id: plans.id })
    .from(plans)
    .where(and(eq(plans.id, r.planId), eq(plans.operatorCode, operator)));
  if (!plan) return { error: "planId: no such plan" };
  const [number] = await tx
    .select({ id: lines.id })
    .from(lines)
    .where(and(eq(lines.operatorCode, operator), eq(lines.msisdn, r.msisdn)))
    .limit(1);
  if (number) return { error: "msisdn: already a line of this operator" };
  // Locked until the commit: nobody reserves or takes it between this check and the claim below.
  const refusal = await lockedRefusal(tx, operator, r.msisdn, [importer]);
  if (refusal) return { error: `msisdn: ${textIn("en", refusalField(refusal))}` };
  const [sim] = await tx.select({ id: lines.id }).from(lines).where(eq(lines.iccid, r.iccid)).limit(1);
  if (sim) return { error: "iccid: this SIM is already in use" };
  const [line] = await tx
    .insert(lines)
    .values({
      operatorCode: operator,
      accountId: r.accountId,
      msisdn: r.msisdn,
      iccid: r.iccid,
      simType: r.simType,
      planId: r.planId,
      cycleDay: r.cycleDay,
      status: "pending",
    })
    .returning({ id: lines.id });
  await claimNumber(tx, operator, r.msisdn, [importer], line!.id);
  return { id: line!.id };
}
