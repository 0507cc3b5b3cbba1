import { createRequire } from "node:module";
import type { MetadataJson } from "libphonenumber-js/core";
import type { Plugin } from "vite";
import { COUNTRY_OF_OPERATOR } from "../../src/providers/operatorCountry.ts";

const MODULE_ID = "virtual:home-phone-metadata";
const RESOLVED = `\0${MODULE_ID}`;

/**
 * The phone-number metadata of the operators' own calling codes (for ATT, +1: the US, Canada and the
 * other North American numbering plan countries), out of libphonenumber-js's full minimal metadata.
 * A subscriber's pages show their own lines' numbers, always of that plan: with this 1 KB instead of
 * the whole world's 16 KB (brotli), the light pages' second round of requests is that much lighter.
 * The portal's chunk brings the full metadata (format.ts, `formatPhonesOfAnyCountry`).
 */
export function homePhoneMetadataOf(full: MetadataJson): MetadataJson {
  const countries = new Set(Object.values(COUNTRY_OF_OPERATOR));
  const callingCodes = Object.entries(full.country_calling_codes).filter(([, codes]) =>
    codes.some((code) => countries.has(code)),
  );
  return {
    ...full,
    country_calling_codes: Object.fromEntries(callingCodes),
    countries: Object.fromEntries(
      callingCodes.flatMap(([, codes]) => codes.map((code) => [code, full.countries[code]])),
    ),
    nonGeographic: {}, // +800, +870 and the like: no operator's lines
  };
}

export function homePhoneMetadata(): Plugin {
  return {
    name: "home-phone-metadata",
    resolveId: (id) => (id === MODULE_ID ? RESOLVED : undefined),
    load(id) {
      if (id !== RESOLVED) return undefined;
      const full = createRequire(import.meta.url)("libphonenumber-js/metadata.min.json") as MetadataJson;
      return `export default ${JSON.stringify(homePhoneMetadataOf(full))};`;
    },
  };
}
