import { describe, expect, it } from "vitest";
import { parseCareQuery } from "../../server/domain/subscribers/careQuery";
import { textIn } from "../../server/i18n/words";

describe("reading the care search box", () => {
  it("takes any format of a number as its digits, from 4 of them", () => {
    for (const q of ["0103", "(202) 555-0103", "+1 202 555 0103", "202.555.0103"])
      expect(parseCareQuery(q)).toMatchObject({ query: { kind: "digits" } });
    expect(parseCareQuery("(202) 555-0103")).toEqual({ query: { kind: "digits", digits: "2025550103" } });
    const tooFew = parseCareQuery("010");
    if (!("error" in tooFew)) throw new Error("expected an error");
    expect(tooFew.error.path).toBe("q");
    expect(textIn("en", tooFew.error.message)).toBe("a number needs at least 4 digits");
    expect(textIn("es", tooFew.error.message)).toBe("un número necesita al menos 4 dígitos");
  });

  it("tells ids, emails and names apart, and refuses what it cannot read", () => {
    expect(parseCareQuery("3CF4BB1A-9392-4891-81B7-8E597B2FDD65")).toEqual({
      query: { kind: "id", id: "3cf4bb1a-9392-4891-81b7-8e597b2fdd65" },
    });
    expect(parseCareQuery("Sam@Example")).toEqual({ query: { kind: "email", text: "sam@example" } });
    expect(parseCareQuery("Sam Chenn")).toEqual({ query: { kind: "text", text: "Sam Chenn" } });
    // One word with a dot, an underscore, a plus or a digit is the start of an email; words without them a name.
    expect(parseCareQuery("Jordan.Smi")).toEqual({ query: { kind: "email", text: "jordan.smi" } });
    expect(parseCareQuery("sam_chen+1")).toEqual({ query: { kind: "email", text: "sam_chen+1" } });
    expect(parseCareQuery("Jordan")).toEqual({ query: { kind: "text", text: "Jordan" } });
    expect(parseCareQuery("J. Smith")).toEqual({ query: { kind: "text", text: "J. Smith" } });
    expect(parseCareQuery("Mary-Jane O'Brien")).toMatchObject({ query: { kind: "text" } });
    expect(parseCareQuery("R2D2 unit")).toMatchObject({ query: { kind: "text" } });
    expect(parseCareQuery("x")).toMatchObject({ error: { path: "q" } });
    expect(parseCareQuery("sam\u0000")).toMatchObject({ error: { path: "q" } });
  });
});

describe("an account number without its hyphens", () => {
  it("reads 32 hex characters as the id, and 32 digits as a number", () => {
    expect(parseCareQuery("6F1C2A3B4C5D4E6F8A9B0C1D2E3F4A5B")).toEqual({
      query: { kind: "id", id: "6f1c2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b" },
    });
    expect(parseCareQuery("12345678901234567890123456789012")).toEqual({
      query: { kind: "digits", digits: "12345678901234567890123456789012" },
    });
  });
});
