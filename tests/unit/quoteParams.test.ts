import { afterEach, describe, expect, it } from "vitest";
import { setLocale } from "../../src/i18n";
import { readable } from "../../src/components/actions/QuoteView";

afterEach(() => setLocale("en"));

// A quote's values as people read them (cancel at cycle end: "… keeps working until Dec 12, 2026").
describe("a quote's values", () => {
  it("shows a number in its national format and a day as the locale writes it, other values as they are", () => {
    expect(readable({ msisdn: "+12025550188", date: "2026-12-12", plan: "Family Share 30 GB", days: 14 })).toEqual({
      msisdn: "(202) 555-0188",
      date: "Dec 12, 2026",
      plan: "Family Share 30 GB",
      days: 14,
    });
    setLocale("es");
    expect(readable({ date: "2026-12-12" }).date).not.toBe("2026-12-12");
  });
});
