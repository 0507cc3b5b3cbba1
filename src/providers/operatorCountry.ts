import type { CountryCode } from "libphonenumber-js/core";

/** Home country of each operator: numbers typed without a country code are its, and its lines' numbers are. */
export const COUNTRY_OF_OPERATOR: Record<string, CountryCode> = { ATT: "US" };
