import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/client";
import { rowsOf } from "../../server/db/rowsOf";
import {
  compileExpression,
  evaluateExpression,
  expressionToSql,
  type ExprEnv,
  type ExprType,
} from "../../src/resources/expressions";
import { openTestDatabase } from "../support/testDatabase";

// One expression language, two implementations that must agree (issue 29): each expression below is
// evaluated in JavaScript (as the browser and the server do) and written as SQL (as lists filter and
// sort on it) over the same records, on the real database (TEST_DB), and the answers compared.

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const env: ExprEnv = {
  fields: {
    startsOn: "date",
    endsOn: "date",
    days: "number",
    rate: "number",
    price: "money",
    fee: "money",
    zone: "string",
    paid: "boolean",
  },
};
const usd = (amount: number) => ({ amount, currency: "USD" });

/** Records as the generic store keeps them in `data`, with nulls, month and year ends, a leap day. */
const records: Record<string, unknown>[] = [
  {
    startsOn: "2024-02-28",
    endsOn: "2024-03-01",
    days: 3,
    rate: 0.145,
    price: usd(1999),
    fee: usd(5),
    zone: "europe",
    paid: true,
  },
  {
    startsOn: "2024-12-31",
    endsOn: "2025-01-01",
    days: 0,
    rate: -2.5,
    price: usd(-5),
    fee: usd(0),
    zone: "Zebra",
    paid: false,
  },
  {},
  { startsOn: "2023-02-28", days: 1.5, rate: 1e-7, price: usd(1), fee: null, zone: "it's", paid: null },
  { endsOn: "2024-02-29", days: -1, rate: 2, fee: usd(-1), zone: "a\\b" },
];

const expressions = [
  "startsOn + days - 1",
  "endsOn - startsOn",
  "today() - startsOn",
  "startsOn + 1.5",
  "1 + startsOn",
  "endsOn - 366",
  "days * rate",
  "days / rate",
  "rate / days",
  "-rate + 1",
  "round(rate * 100)",
  "round(days * 2.5) + round(-days * 2.5)",
  "0.1 + 0.2",
  "0.1 + 0.2 == 0.3",
  "price + fee",
  "price - fee - money(0.01)",
  "price * rate",
  "rate * price",
  "price / days",
  "price * 0.5",
  "-price",
  "money(rate)",
  "price > fee",
  "price == fee",
  "startsOn <= today()",
  "startsOn > endsOn",
  "zone < 'a'",
  "zone == 'europe'",
  `zone == "it's" or zone == 'a\\\\b'`,
  "zone != null",
  "days == null",
  "days != 1",
  "days == rate",
  "paid and days > 1",
  "paid or days > 1",
  "not paid",
  "not (days < 3)",
  "if(paid, price, money(1))",
  "if(days > 1, null, startsOn)",
  "if(paid, zone, 'none')",
  "min(days, rate)",
  "max(startsOn, endsOn)",
  "max(price, fee)",
  "role == 'subscriber' and startsOn > today()",
  "role",
];

const scope = { today: "2024-02-29", role: "subscriber", currency: "USD" };

/** The stored field as the generic store reads it (server/generic/fieldSql.ts fieldExpression). */
function fieldSql(field: string): string {
  const kinds: Record<ExprType, string> = {
    number: `((data->>'${field}')::numeric)`,
    money: `((data->'${field}'->>'amount')::bigint)`,
    boolean: `((data->>'${field}')::boolean)`,
    date: `(data->>'${field}')`,
    string: `(data->>'${field}')`,
  };
  return kinds[env.fields[field]!];
}

/** A SQL answer in the shape evaluateExpression gives (drivers return bigint as text or number). */
function asValue(value: unknown, type: ExprType): unknown {
  if (value === null) return null;
  if (type === "money") return usd(Number(value));
  if (type === "number") return Number(value);
  return value;
}

describe("expressions give the same answers in JavaScript and in SQL", () => {
  const values = records
    .map((record, n) => `(${n}, '${JSON.stringify(record).replaceAll("'", "''")}'::jsonb)`)
    .join(", ");

  it.each(expressions)("%s", async (source) => {
    const compiled = compileExpression(source, env);
    const inSql = expressionToSql(compiled, fieldSql, scope);
    const rows = rowsOf<{ value: unknown }>(
      await database.db.execute(sql.raw(`SELECT ${inSql} AS value FROM (VALUES ${values}) AS t(n, data) ORDER BY n`)),
    );
    const fromSql = rows.map((row) => asValue(row.value, compiled.type));
    const fromJs = records.map((record) => evaluateExpression(compiled, { record, ...scope }));
    expect(fromSql).toEqual(fromJs);
  });

  it("filters and sorts on an expression as a list would", async () => {
    const compiled = compileExpression("startsOn + days - 1", env);
    const ends = expressionToSql(compiled, fieldSql, scope);
    const after = expressionToSql(compileExpression("startsOn + days - 1 >= today()", env), fieldSql, scope);
    const rows = rowsOf<{ n: number }>(
      await database.db.execute(
        sql.raw(`SELECT n FROM (VALUES ${values}) AS t(n, data) WHERE ${after} ORDER BY ${ends} DESC`),
      ),
    );
    expect(rows.map((row) => Number(row.n))).toEqual([1, 0]);
  });
});
