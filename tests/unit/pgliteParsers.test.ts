import { PGlite, type QueryOptions } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { date, integer, interval, numeric, pgTable, timestamp } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { readDatesAsText } from "../../server/db/pgliteParsers";

// server/db/pgliteParsers.ts sets drizzle's text parsing on the PGlite instance once instead of per
// query. Checked against a stock PGlite with a stock drizzle: the same values through drizzle, the
// same values through raw SQL with the own parsers, and drizzle's per-query parsers really dropped.

const samples = pgTable("samples", {
  id: integer("id").primaryKey(),
  at: timestamp("at"),
  atZone: timestamp("at_zone", { withTimezone: true, mode: "string" }),
  atDate: timestamp("at_date", { withTimezone: true }),
  day: date("day"),
  span: interval("span"),
  amount: numeric("amount"),
});

const create = `
  create table samples (id int primary key, at timestamp, at_zone timestamptz, at_date timestamptz, day date, span interval, amount numeric);
  insert into samples values (1, '2026-11-27 10:11:12.345', '2026-11-27 10:11:12.345+02', '2026-11-27 10:11:12+00', '2026-02-28', '1 day 02:03:04', 12.50),
                             (2, null, null, null, null, null, null);`;
// Every type drizzle reads as text, scalars and arrays, and a few it leaves to PGlite.
const everyType = sql`select '2026-11-27 10:11:12'::timestamp as ts, '2026-11-27 10:11:12+02'::timestamptz as tstz,
  '3 days'::interval as iv, '2026-11-27'::date as d, array[1.5, 2]::numeric[] as nums,
  array['2026-11-27 10:11:12'::timestamp] as tss, array['2026-11-27 10:11:12+00'::timestamptz] as tstzs,
  array['1 hour'::interval] as ivs, array['2026-11-27'::date] as ds, 7::int as n, '{"a":1}'::jsonb as j, 1.25::numeric as num`;
const rawText =
  "select '2026-11-27 10:11:12+02'::timestamptz as tstz, '2026-11-27'::date as d, array['2026-11-27 10:11:12+00'::timestamptz] as tstzs, $1::int as n";

let stockClient: PGlite;
let ourClient: PGlite;
let stock: ReturnType<typeof drizzle>;
let ours: ReturnType<typeof drizzle>;
let ownParsers: QueryOptions["parsers"];
const queryOptions: (QueryOptions | undefined)[] = [];

beforeAll(async () => {
  [stockClient, ourClient] = await Promise.all([PGlite.create("memory://"), PGlite.create("memory://")]);
  const query = ourClient.query.bind(ourClient);
  ourClient.query = vi.fn((text: string, params?: unknown[], options?: QueryOptions) => {
    queryOptions.push(options);
    return query(text, params, options);
  }) as typeof ourClient.query;
  const split = readDatesAsText(ourClient);
  ownParsers = split.ownParsers;
  stock = drizzle({ client: stockClient });
  ours = drizzle({ client: split.drizzleClient });
  await Promise.all([stockClient.exec(create), ourClient.exec(create)]);
}, 60_000); // two PGlite instances start in WebAssembly: seconds on a loaded machine (a run timed out at the default 10 s)

afterAll(async () => {
  await Promise.all([stockClient?.close(), ourClient?.close()]);
});

describe("PGlite with drizzle's parsers set once", () => {
  it("reads every date, time, interval and numeric array through drizzle as a stock drizzle does", async () => {
    const [expected, actual] = [await stock.execute(everyType), await ours.execute(everyType)];
    expect(actual.rows).toEqual(expected.rows);
    expect(typeof actual.rows[0]!.tstz).toBe("string");
    const [expectedRows, actualRows] = [
      await stock.select().from(samples).orderBy(samples.id),
      await ours.select().from(samples).orderBy(samples.id),
    ];
    expect(actualRows).toEqual(expectedRows);
    expect(actualRows[0]!.atDate).toBeInstanceOf(Date);
  });

  it("reads the same inside a transaction", async () => {
    const read = (db: typeof stock) =>
      db.transaction(async (tx) => ({
        rows: (await tx.execute(everyType)).rows,
        samples: await tx.select().from(samples).orderBy(samples.id),
      }));
    expect(await read(ours)).toEqual(await read(stock));
  });

  it("drops drizzle's per-query parsers, so PGlite makes no copy of its own", async () => {
    queryOptions.length = 0;
    await ours.select().from(samples);
    await ours.transaction((tx) => tx.select().from(samples));
    expect(queryOptions.length).toBeGreaterThan(0);
    for (const options of queryOptions) expect(options?.parsers).toBeUndefined();
  });

  it("gives raw SQL PGlite's own values when it passes the own parsers", async () => {
    const [expected, actual] = [
      await stockClient.query(rawText, [3]),
      await ourClient.query(rawText, [3], { parsers: ownParsers }),
    ];
    expect(actual.rows).toEqual(expected.rows);
    expect((actual.rows[0] as { tstz: unknown }).tstz).toBeInstanceOf(Date);
    expect((actual.rows[0] as { tstzs: unknown[] }).tstzs[0]).toBeInstanceOf(Date);
  });
});
