import { afterEach, describe, expect, it } from "vitest";
import allPhoneMetadata from "libphonenumber-js/metadata.min.json";
import homePhoneMetadata from "virtual:home-phone-metadata";
import {
  formatDataMb,
  formatMoney,
  formatMsisdn,
  formatPhonesOfAnyCountry,
  formatQuantity,
  toMajor,
  toMinor,
} from "../../src/components/format";
import { homePhoneMetadataOf } from "../../scripts/vite/homePhoneMetadata";
import { en } from "../../src/i18n/en";
import { es } from "../../src/i18n/es";
import { setLocale } from "../../src/i18n";

afterEach(() => setLocale("en"));

describe("formatMsisdn", () => {
  it("shows a US E.164 number in the national format", () => {
    expect(formatMsisdn("+12025550101")).toBe("(202) 555-0101");
    expect(formatMsisdn("+13105550199")).toBe("(310) 555-0199");
  });

  it("returns what it cannot parse unchanged", () => {
    expect(formatMsisdn("not a number")).toBe("not a number");
    expect(formatMsisdn("")).toBe("");
  });

  it("knows the operator's whole numbering plan on the subscriber's pages, other countries once the portal brings them", () => {
    // +1 is shared by the US, Canada and the Caribbean: all of them are in the light pages' metadata.
    expect(formatMsisdn("+18095550123")).toBe("(809) 555-0123");
    expect(formatMsisdn("+14165550123")).toBe("(416) 555-0123");
    // A London number is not an ATT line's: left as it is until the portal's staff pages can show it.
    expect(formatMsisdn("+442071838750")).toBe("+442071838750");
    try {
      formatPhonesOfAnyCountry(allPhoneMetadata);
      expect(formatMsisdn("+442071838750")).toBe("020 7183 8750");
      expect(formatMsisdn("+12025550101")).toBe("(202) 555-0101");
    } finally {
      formatPhonesOfAnyCountry(homePhoneMetadata);
    }
  });
});

describe("the operators' phone metadata (scripts/vite/homePhoneMetadata.ts)", () => {
  it("holds +1 and every country that shares it, exactly as the full metadata has them, and nothing else", () => {
    const home = homePhoneMetadataOf(allPhoneMetadata);
    expect(Object.keys(home.country_calling_codes)).toEqual(["1"]);
    expect(home.country_calling_codes["1"]).toEqual(allPhoneMetadata.country_calling_codes["1"]);
    expect(home.country_calling_codes["1"]).toEqual(expect.arrayContaining(["US", "CA", "DO", "PR"]));
    expect(Object.keys(home.countries).sort()).toEqual([...allPhoneMetadata.country_calling_codes["1"]!].sort());
    for (const code of Object.keys(home.countries))
      expect(home.countries[code as "US"]).toEqual(allPhoneMetadata.countries[code as "US"]);
    // What the build serves is the same subset.
    expect(homePhoneMetadata).toEqual(JSON.parse(JSON.stringify(home)));
  });
});

describe("formatMoney", () => {
  it("turns integer minor units into the currency's amount", () => {
    expect(formatMoney({ amount: 3500, currency: "USD" })).toBe("$35.00");
    expect(formatMoney({ amount: 1999, currency: "USD" })).toBe("$19.99");
    expect(formatMoney({ amount: 0, currency: "USD" })).toBe("$0.00");
    expect(formatMoney({ amount: 1250, currency: "EUR" })).toBe("€12.50");
  });

  it("uses the currency's own number of decimals: JPY has none", () => {
    expect(formatMoney({ amount: 3500, currency: "JPY" })).toBe("¥3,500");
    expect(formatMoney({ amount: 1, currency: "JPY" })).toBe("¥1");
  });

  it("and KWD has three", () => {
    expect(formatMoney({ amount: 1500, currency: "KWD" })).toMatch(/^KWD\s1\.500$/);
  });
});

describe("formatDataMb", () => {
  it("null is unlimited", () => {
    expect(formatDataMb(null)).toBe(en["units.unlimited"]);
    expect(formatDataMb(null)).toBe("Unlimited");
  });

  it("whole gigabytes from 1024 MB, with at most one decimal", () => {
    expect(formatDataMb(5120)).toBe("5 GB");
    expect(formatDataMb(1024)).toBe("1 GB");
    expect(formatDataMb(5632)).toBe("5.5 GB");
    expect(formatDataMb(51200)).toBe("50 GB");
  });

  it("megabytes below 1024", () => {
    expect(formatDataMb(512)).toBe("512 MB");
    expect(formatDataMb(0)).toBe("0 MB");
    expect(formatDataMb(1023)).toBe("1023 MB");
  });

  it("follows the language", () => {
    setLocale("es");
    expect(formatDataMb(null)).toBe(es["units.unlimited"]);
    expect(formatDataMb(5120)).toBe("5 GB");
  });
});

describe("formatQuantity", () => {
  it("null is unlimited, numbers are grouped", () => {
    expect(formatQuantity(null, "units.minutes")).toBe("Unlimited");
    expect(formatQuantity(1500, "units.minutes")).toBe("1,500 min");
    expect(formatQuantity(200, "units.texts")).toBe("200");
  });
});

describe("toMinor and toMajor", () => {
  it("turn typed amounts into integer minor units without float noise, by the currency's digits", () => {
    expect(toMinor(19.99, "USD")).toBe(1999);
    expect(toMinor(0.1 + 0.2, "USD")).toBe(30);
    expect(toMinor(1.005, "USD")).toBe(100); // 1.005 is 1.00499… in binary: rounds as typed-to-cents would
    expect(toMinor(3500, "JPY")).toBe(3500);
    expect(toMinor(1.234, "KWD")).toBe(1234);
    expect(toMajor(1999, "USD")).toBe(19.99);
    expect(toMajor(3500, "JPY")).toBe(3500);
  });
});
