import type { ExprType } from "./types";

/**
 * Value helpers shared by evaluation and SQL, written so JavaScript lands where PostgreSQL does:
 * numbers are doubles in both (SQL casts to float8), and rounding goes through numeric the way
 * PostgreSQL's float8→numeric cast does (15 significant digits), then half away from zero.
 */

export interface Money {
  amount: number;
  currency: string;
}
export type Value = number | string | boolean | Money | null;

/** round((x)::numeric) in PostgreSQL: 15 significant digits, then half away from zero. */
export function roundHalfAway(x: number): number {
  const decimal = Number(x.toPrecision(15));
  return Math.sign(decimal) * Math.round(Math.abs(decimal)) || 0; // `|| 0`: no -0
}

/** Digits after the decimal point of a currency (USD 2, JPY 0), as Intl knows them. */
const digitsOf = new Map<string, number>();
export function minorDigits(currency: string): number {
  let digits = digitsOf.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
    digitsOf.set(currency, digits);
  }
  return digits;
}

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/** Days since 1970-01-01 of a "YYYY-MM-DD" (or an ISO time's day), or null when it is no real day. */
export function dayNumber(text: string): number | null {
  const match = ISO_DATE.exec(text);
  if (!match) return null;
  const date = new Date(0);
  date.setUTCFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  // 2024-02-30 rolls over to March in JavaScript; PostgreSQL refuses it: so no day at all.
  if (date.toISOString().slice(0, 10) !== text.slice(0, 10)) return null;
  return date.getTime() / DAY_MS;
}

/** The "YYYY-MM-DD" of a day number, or null beyond the years four digits write. */
export function dayText(day: number): string | null {
  const date = new Date(day * DAY_MS);
  const year = date.getUTCFullYear();
  return Number.isNaN(year) || year < 0 || year > 9999 ? null : date.toISOString().slice(0, 10);
}

/**
 * A record value as the expression reads it, the way the SQL casts read the stored JSON: numeric
 * text counts as a number, an ISO time as its day; a value of another shape reads as null.
 */
export function readValue(value: unknown, type: ExprType, currency: string): Value {
  if (value === null || value === undefined) return null;
  switch (type) {
    case "number": {
      const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      return typeof number === "number" && Number.isFinite(number) ? number : null;
    }
    case "money": {
      if (typeof value !== "object") return null;
      const { amount, currency: own } = value as { amount?: unknown; currency?: unknown };
      const number = readValue(amount, "number", currency) as number | null;
      return number === null ? null : { amount: number, currency: typeof own === "string" ? own : currency };
    }
    case "date":
      return typeof value === "string" && dayNumber(value) !== null ? value.slice(0, 10) : null;
    case "string":
      // data->>'f' gives a number or a boolean as its text.
      return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
        ? String(value)
        : null;
    case "boolean":
      return typeof value === "boolean" ? value : null;
  }
}

/** Orders texts by code point, as PostgreSQL's "C" collation (UTF-8 bytes) does; UTF-16 units would not. */
export function compareText(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** Orders two non-null values of one type: money by amount, dates by day, texts by code point. */
export function compareValues(a: Value, b: Value, type: ExprType): number {
  if (type === "money") return (a as Money).amount - (b as Money).amount;
  if (type === "string" || type === "date") return compareText(a as string, b as string);
  return Number(a) - Number(b);
}
