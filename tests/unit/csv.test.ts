import { describe, expect, it } from "vitest";
import { parseCsv } from "../../server/lib/csv";

describe("parseCsv (RFC 4180)", () => {
  it("splits records on CRLF or LF and fields on commas; a trailing line end adds nothing", () => {
    expect(parseCsv("a,b\r\nc,d\r\n")).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    expect(parseCsv("a,b\nc,d")).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
  });
  it("keeps empty fields", () => {
    expect(parseCsv("a,,c\n,,\n")).toEqual([
      ["a", "", "c"],
      ["", "", ""],
    ]);
  });
  it("reads quoted fields with commas, line breaks and doubled quotes", () => {
    expect(parseCsv('"x, y","line\r\nbreak","say ""hi"""\n')).toEqual([["x, y", "line\r\nbreak", 'say "hi"']]);
    expect(parseCsv('"",b')).toEqual([["", "b"]]);
  });
  it("skips a byte-order mark", () => {
    expect(parseCsv("\uFEFFa,b")).toEqual([["a", "b"]]);
  });
  it("refuses a quote left open or text after a closing quote", () => {
    expect(() => parseCsv('"open,b\n')).toThrow(/not closed/);
    expect(() => parseCsv('"a"x,b')).toThrow(/after a closing quote/);
  });
  it("answers nothing for empty text", () => {
    expect(parseCsv("")).toEqual([]);
  });
});
