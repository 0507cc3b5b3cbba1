/**
 * The product's one CSV writer: the portal's list and audit exports, a voucher batch's codes (saved
 * by the portal and answered by the server as text/csv) and the server's privacy export all write
 * through it, so a cell is made safe in one place.
 *
 * RFC 4180, CRLF line ends, and CSV injection neutralized as OWASP recommends: a text cell starting
 * with =, +, -, @, a tab or a carriage return is one a spreadsheet runs as a formula (a ticket subject
 * `=HYPERLINK("…"&A1,…)` planted by a subscriber and opened by an agent), so it gets a leading single
 * quote; every text cell is wrapped in double quotes with its quotes doubled, so a separator inside
 * it (a comma, or the semicolon of a spreadsheet set to read those) never starts a cell of its own.
 * Numbers and booleans are written bare: they are not text, and a spreadsheet reads them as values.
 */

/** What a cell may hold: text, a number, a date (as ISO 8601), nothing, or anything else (as JSON). */
export type CsvValue = unknown;

/** The first characters that make a spreadsheet read a cell as a formula (OWASP, "CSV Injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: empty for null/undefined, numbers and booleans bare, text neutralized and quoted. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if ((typeof value === "number" && Number.isFinite(value)) || typeof value === "bigint" || typeof value === "boolean")
    return String(value);
  // What is left after objects: text, a non-finite number, a symbol or a function.
  const scalar = value as string | number | symbol | (() => unknown);
  let text =
    value instanceof Date ? value.toISOString() : typeof value === "object" ? JSON.stringify(value) : String(scalar);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

/** Rows of cells (the first usually the header) as CSV text, each row ending in CRLF. */
export function toCsv(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => row.map(csvCell).join(",") + "\r\n").join("");
}

/** Records as CSV under a header row of `columns` (by default every key any record has, in order of appearance). */
export function recordsToCsv(
  records: readonly Record<string, CsvValue>[],
  columns: readonly string[] = [...new Set(records.flatMap((r) => Object.keys(r)))],
): string {
  if (!columns.length) return "";
  return toCsv([columns, ...records.map((record) => columns.map((column) => record[column]))]);
}
