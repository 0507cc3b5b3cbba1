import { describe, expect, it } from "vitest";
import {
  compileExpression,
  evaluateExpression,
  expressionToSql,
  ExpressionError,
  type EvalScope,
  type ExprEnv,
} from "../../src/resources/expressions";

// The declaration expression language (issue 29): what it refuses and where, and what it computes.
// tests/integration/expressionsSql.test.ts checks that the SQL it writes gives the same answers.

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
  rateTables: { "travel-insurance-rates": "money", discounts: "number" },
};

const scope = (record: Record<string, unknown> = {}, more: Partial<EvalScope> = {}): EvalScope => ({
  record,
  today: "2024-02-28",
  role: "subscriber",
  currency: "USD",
  ...more,
});
const run = (source: string, record: Record<string, unknown> = {}, more: Partial<EvalScope> = {}) =>
  evaluateExpression(compileExpression(source, env), scope(record, more));
const usd = (amount: number) => ({ amount, currency: "USD" });

/** The error compileExpression throws for `source`: its message and position. */
function refusal(source: string): { message: string; position: number } {
  try {
    compileExpression(source, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ExpressionError);
    const { message, position, expression } = error as ExpressionError;
    expect(expression).toBe(source);
    expect(message).toMatch(new RegExp(` at ${position}$`));
    return { message, position };
  }
  throw new Error(`'${source}' was accepted`);
}

describe("compiling", () => {
  it("reports the result type, the fields read and what else the expression uses", () => {
    const compiled = compileExpression("startsOn + days - 1", env);
    expect(compiled).toMatchObject({ type: "date", fields: ["startsOn", "days"], usesToday: false });
    expect(compileExpression("role != 'subscriber' or startsOn > today()", env)).toMatchObject({
      type: "boolean",
      fields: ["startsOn"],
      usesToday: true,
      usesRole: true,
      usesRate: false,
    });
    expect(compileExpression("rate('travel-insurance-rates', zone) * days", env)).toMatchObject({
      type: "money",
      usesRate: true,
    });
    expect(compileExpression("endsOn - startsOn", env).type).toBe("number");
    expect(compileExpression("if(paid, zone, null)", env).type).toBe("string");
    expect(compileExpression("not (days > 3) and not paid", env).type).toBe("boolean");
  });

  it.each([
    ["days + dayz", "unknown field 'dayz'", 7],
    ["today + 1", "unknown field 'today' (call it: today(…))", 0],
    ["  sqrt(days)", "unknown function 'sqrt'", 2],
    ["days + round(days, 2)", "round() takes 1 argument, not 2", 7],
    ["today(1)", "today() takes 0 arguments, not 1", 0],
    ["if(paid, 1)", "if() takes 3 arguments, not 2", 0],
    ["startsOn + price", "cannot add date and money", 9],
    ["price * price", "cannot multiply money and money", 6],
    ["days / price", "cannot divide number and money", 5],
    ["zone + zone", "cannot add string and string", 5],
    ["startsOn + startsOn", "cannot add date and date", 9],
    ["(days + 1) * startsOn", "cannot multiply number and date", 11],
    ["days == zone", "cannot compare number and string", 5],
    ["paid < true", "booleans cannot be ordered with '<'", 5],
    ["days < null", "compare with null only by == or !=", 5],
    ["null == null", "both sides are null", 5],
    ["days + null", "null can only be compared (== null, != null) or be a branch of if()", 7],
    ["null", "the expression is always null", 0],
    ["if(paid, null, null)", "the expression is always null", 0],
    ["if(days, 1, 2)", "the condition of if() needs boolean, not number", 3],
    ["if(paid, 1, 'a')", "the branches of if() differ: number and string", 12],
    ["min(days, price)", "min() needs number, not money", 10],
    ["max(zone, zone)", "max() needs number or money or date, not string", 4],
    ["round(price)", "round() needs number, not money", 6],
    ["money(price)", "money() needs number, not money", 6],
    ["days > 1 and zone", "'and' needs boolean, not string", 13],
    ["not days", "'not' needs boolean, not number", 4],
    ["-zone", "'-' needs number or money, not string", 1],
    ["rate(zone, days)", "rate() takes the rate table's name in quotes", 5],
    ["rate('plans', zone)", "unknown rate table 'plans'", 5],
    ["not days == 1", "write 'not (…)' around a comparison", 0],
    ["zone.length", "member access ('.' or '[…]') is not allowed", 0],
    ["days + zone[0]", "member access ('.' or '[…]') is not allowed", 7],
    ["this", "'this' is not allowed", 0],
    ["[1, 2]", "lists ('[…]') are not allowed", 0],
    ["(1, 2)", "a list of expressions ('a, b') is not allowed", 0],
    ["days === 1", "'===' is not allowed: write '=='", 5],
    ["days !== 1", "'!==' is not allowed: write '!='", 5],
    ["paid && paid", "'&&' is not allowed: write 'and'", 5],
    ["paid || paid", "'||' is not allowed: write 'or'", 5],
    ["!paid", "'!' is not allowed: write 'not'", 0],
    ["days % 7", "'%' is not allowed", 5],
    ["days ** 2", "'**' is not allowed", 5],
    ["+days", "'+' is not allowed", 0],
    ["days 1", "expected an operator before this", 5],
    ["", "the expression is empty", 0],
    ["days +", "Expected expression after +", 6],
    ["(days + 1", "Unclosed (", 9],
    ["zone == 'europe", `Unclosed quote after "europe"`, 15],
    ["paid ? 1 : 2", `Unexpected "?" (write if(condition, a, b))`, 5],
    ["1e999", "the number 1e999 is too large", 0],
  ])("refuses %j: %s at %i", (source, message, position) => {
    expect(refusal(source)).toEqual({ message: `${message} at ${position}`, position });
  });

  it("leaves jsep's shared configuration as it found it", async () => {
    const { default: jsep } = await import("jsep");
    compileExpression("paid and not paid or days > 1", env);
    expect(jsep.binary_ops).not.toHaveProperty("and");
    expect(jsep.unary_ops).not.toHaveProperty("not");
    expect(() => jsep("a ? b : c")).not.toThrow(); // jsep's own ternary plugin still there
  });
});

describe("evaluating", () => {
  it("does arithmetic on numbers, with division by zero as null", () => {
    expect(run("1 + 2 * 3 - 4 / 2")).toBe(5);
    expect(run("(1 + 2) * 3")).toBe(9);
    expect(run("-days + 1", { days: 3 })).toBe(-2);
    expect(run("days / 0", { days: 3 })).toBeNull();
    expect(run("round(2.5) + round(-2.5) * 10 + round(0.145 * 100) * 100")).toBe(3 - 30 + 1500);
  });

  it("does money arithmetic in whole minor units, rounding half away from zero", () => {
    expect(run("money(2.50)")).toEqual(usd(250));
    expect(run("money(2.50)", {}, { currency: "JPY" })).toEqual({ amount: 3, currency: "JPY" });
    expect(run("price + fee - money(1)", { price: usd(1000), fee: usd(5) })).toEqual(usd(905));
    expect(run("price * days", { price: usd(150), days: 3 })).toEqual(usd(450));
    expect(run("days * price", { price: usd(150), days: 3 })).toEqual(usd(450));
    expect(run("price * 0.5", { price: usd(5) })).toEqual(usd(3));
    expect(run("price * 0.5", { price: usd(-5) })).toEqual(usd(-3));
    expect(run("price / 3", { price: usd(100) })).toEqual(usd(33));
    expect(run("price / 8", { price: usd(100) })).toEqual(usd(13)); // 12.5
    expect(run("price / 0", { price: usd(100) })).toBeNull();
    expect(run("-price", { price: usd(100) })).toEqual(usd(-100));
    // A money value keeps the currency it came with.
    expect(run("price * 2", { price: { amount: 7, currency: "EUR" } })).toEqual({ amount: 14, currency: "EUR" });
  });

  it("does date arithmetic across month and year ends and leap days", () => {
    expect(run("startsOn + days - 1", { startsOn: "2024-02-28", days: 3 })).toBe("2024-03-01");
    expect(run("startsOn + 1", { startsOn: "2023-02-28" })).toBe("2023-03-01");
    expect(run("startsOn + 1", { startsOn: "2024-02-28" })).toBe("2024-02-29");
    expect(run("startsOn + 1", { startsOn: "2024-12-31" })).toBe("2025-01-01");
    expect(run("startsOn - 1", { startsOn: "2025-01-01" })).toBe("2024-12-31");
    expect(run("1 + startsOn", { startsOn: "2024-01-31" })).toBe("2024-02-01");
    expect(run("startsOn + 365", { startsOn: "2024-01-01" })).toBe("2024-12-31");
    expect(run("endsOn - startsOn", { startsOn: "2024-02-01", endsOn: "2024-03-01" })).toBe(29);
    expect(run("endsOn - startsOn", { startsOn: "2025-12-31", endsOn: "2025-01-01" })).toBe(-364);
    expect(run("startsOn + 1.5", { startsOn: "2024-01-01" })).toBe("2024-01-03"); // days round half away
    expect(run("today() + 1")).toBe("2024-02-29");
    expect(run("today()", {}, { today: "2024-12-31" })).toBe("2024-12-31");
  });

  it("compares values of one type: money by amount, dates by day, texts by code point", () => {
    expect(run("days == 3 and days != 4 and days < 4 and days <= 3 and days > 2 and days >= 3", { days: 3 })).toBe(
      true,
    );
    expect(run("price > fee", { price: usd(10), fee: { amount: 9, currency: "USD" } })).toBe(true);
    expect(run("price == money(0.10)", { price: usd(10) })).toBe(true);
    expect(run("startsOn > today()", { startsOn: "2024-03-01" })).toBe(true);
    expect(run("startsOn <= today()", { startsOn: "2024-02-28" })).toBe(true);
    expect(run("zone < 'b'", { zone: "americas" })).toBe(true);
    expect(run("zone < 'a'", { zone: "B" })).toBe(true); // "C" order: capitals first
    expect(run("zone == 'europe'", { zone: "europe" })).toBe(true);
    expect(run("paid == false", { paid: false })).toBe(true);
    expect(run("0.1 + 0.2 == 0.3")).toBe(false); // doubles, in SQL too
  });

  it("treats nulls: arithmetic gives null, orderings are false, == null finds them", () => {
    expect(run("days + 1", {})).toBeNull();
    expect(run("price * 2", { price: null })).toBeNull();
    expect(run("startsOn + 1", { startsOn: undefined })).toBeNull();
    expect(run("days < 3", {})).toBe(false);
    expect(run("not (days < 3)", {})).toBe(true);
    expect(run("days == null", {})).toBe(true);
    expect(run("days != null", { days: 0 })).toBe(true);
    expect(run("null == startsOn", {})).toBe(true);
    expect(run("days == 1", {})).toBe(false);
    expect(run("days != 1", {})).toBe(true);
    expect(run("days == rate", {})).toBe(true); // two nulls are equal
    expect(run("min(days, 3)", {})).toBeNull();
    expect(run("round(days)", {})).toBeNull();
    // A boolean result is never null: a missing flag reads as not met.
    expect(run("paid", {})).toBe(false);
    expect(run("not paid", {})).toBe(false);
    expect(run("paid or true", {})).toBe(true);
    expect(run("paid and false", {})).toBe(false);
    // A value of another shape than its field's reads as null.
    expect(run("days + 1", { days: "many" })).toBeNull();
    expect(run("startsOn + 1", { startsOn: "2024-02-30" })).toBeNull();
  });

  it("combines with and, or, not", () => {
    expect(run("paid and days > 1", { paid: true, days: 2 })).toBe(true);
    expect(run("paid and days > 1", { paid: false, days: 2 })).toBe(false);
    expect(run("paid or days > 1", { paid: false, days: 2 })).toBe(true);
    expect(run("not paid", { paid: false })).toBe(true);
    expect(run("not (paid or days > 1)", { paid: false, days: 0 })).toBe(true);
    expect(run("paid or days > 1 and false", { paid: true })).toBe(true); // and binds tighter
  });

  it("chooses with if(), with null on either side", () => {
    expect(run("if(days > 30, money(1), money(2))", { days: 31 })).toEqual(usd(100));
    expect(run("if(days > 30, money(1), money(2))", { days: 3 })).toEqual(usd(200));
    expect(run("if(days > 30, money(1), money(2))", {})).toEqual(usd(200));
    expect(run("if(paid, null, startsOn)", { paid: true, startsOn: "2024-01-01" })).toBeNull();
    expect(run("if(paid, null, startsOn)", { paid: false, startsOn: "2024-01-01" })).toBe("2024-01-01");
  });

  it("takes min and max of numbers, money and dates", () => {
    expect(run("min(days, 10) + max(days, 10)", { days: 3 })).toBe(13);
    expect(run("max(price, money(5))", { price: usd(300) })).toEqual(usd(500));
    expect(run("min(startsOn, today())", { startsOn: "2024-01-01" })).toBe("2024-01-01");
  });

  it("reads a rate table's value in force today", () => {
    const asked: unknown[] = [];
    const rate: EvalScope["rate"] = (table, key, asOf) => {
      asked.push([table, key, asOf]);
      return key === "europe" ? { amount: 200, currency: "USD" } : null;
    };
    expect(run("rate('travel-insurance-rates', zone) * days", { zone: "europe", days: 3 }, { rate })).toEqual(usd(600));
    expect(asked).toEqual([["travel-insurance-rates", "europe", "2024-02-28"]]);
    expect(run("rate('travel-insurance-rates', zone) * days", { zone: "mars", days: 3 }, { rate })).toBeNull();
    expect(run("rate('discounts', days)", { days: 2 }, { rate: () => 0.25 })).toBe(0.25);
    expect(run("rate('discounts', days)", {}, { rate: () => 0.25 })).toBeNull(); // no key, no rate
  });

  it("knows who acts", () => {
    const rule = "role != 'subscriber' or startsOn > today()";
    expect(run(rule, { startsOn: "2024-02-28" }, { role: "subscriber" })).toBe(false);
    expect(run(rule, { startsOn: "2024-02-29" }, { role: "subscriber" })).toBe(true);
    expect(run(rule, { startsOn: "2024-02-28" }, { role: "agent" })).toBe(true);
    expect(run("role == null", {}, { role: null })).toBe(true);
  });

  it("refuses a today that is no day", () => {
    expect(() => run("today()", {}, { today: "2024-02-30" })).toThrow(/YYYY-MM-DD/);
  });
});

describe("SQL", () => {
  const fieldSql = (field: string) => `(data->>'${field}')`;
  it("writes literals safely and refuses rate()", () => {
    const sql = expressionToSql(compileExpression(`zone == "it's \\\\ here"`, env), fieldSql, {
      today: "2024-02-28",
      role: "x'); drop table t; --",
    });
    expect(sql).toContain(`E'it''s \\\\ here'`);
    const withRole = expressionToSql(compileExpression("role == 'a'", env), fieldSql, {
      today: "2024-02-28",
      role: "x'); drop table t; --",
    });
    expect(withRole).toContain(`E'x''); drop table t; --'`);
    expect(() =>
      expressionToSql(compileExpression("days + rate('discounts', zone)", env), fieldSql, { today: "2024-02-28" }),
    ).toThrow(
      new ExpressionError(
        "rate() is read when a record is written, not in a list's SQL at 7",
        "days + rate('discounts', zone)",
        7,
      ),
    );
    expect(() => expressionToSql(compileExpression("today()", env), fieldSql, { today: "2024-2-1" })).toThrow(
      /YYYY-MM-DD/,
    );
  });
});
