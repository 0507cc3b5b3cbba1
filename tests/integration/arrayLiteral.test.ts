import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { arrayLiteral } from "../../server/db/arrayLiteral";
import type { Database } from "../../server/db/client";
import { rowsOf } from "../../server/db/rowsOf";
import { openTestDatabase } from "../support/testDatabase";

// The usage ingest sends its columns as array literals it writes itself: what the database reads
// back must be exactly what was written, whatever the strings hold.
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

/** The literal cast to `type[]` in the database, read back as JSON (every driver parses that alike). */
const readBack = async (literal: string, type: "text" | "int" | "timestamptz") => {
  const cast = sql.raw(`${type}[]`);
  const [row] = rowsOf<{ values: unknown[] }>(
    await database.db.execute(sql`select to_json(${literal}::${cast}) as values`),
  );
  return row!.values;
};

describe("an array literal", () => {
  it("gives back every string as it was, quotes, backslashes, braces, commas, spaces and NULL included", async () => {
    const strings = [
      "plain",
      "NULL",
      "null",
      "",
      " padded ",
      'say "hi"',
      "back\\slash",
      "{braces}",
      "a,b",
      "ñandú ☎",
      '\\"',
    ];
    expect(await readBack(arrayLiteral(strings), "text")).toEqual(strings);
  });

  it("writes null as SQL NULL and numbers as they are", async () => {
    expect(await readBack(arrayLiteral(["a", null, "b"]), "text")).toEqual(["a", null, "b"]);
    expect(await readBack(arrayLiteral([0, -7, 86_400]), "int")).toEqual([0, -7, 86_400]);
  });

  it("carries ISO times to timestamptz", async () => {
    const times = ["2026-11-30T23:59:59.123Z", "2026-12-01T01:00:00+02:00"];
    const back = (await readBack(arrayLiteral(times), "timestamptz")) as string[];
    expect(back.map((t) => new Date(t).toISOString())).toEqual(times.map((t) => new Date(t).toISOString()));
  });

  it("refuses a number that is not finite instead of writing NaN", () => {
    expect(() => arrayLiteral([1, Number.NaN])).toThrow(/finite/);
  });

  it("is an empty array for no values", async () => {
    expect(await readBack(arrayLiteral([]), "text")).toEqual([]);
  });
});
