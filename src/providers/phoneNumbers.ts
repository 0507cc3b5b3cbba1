import { parsePhoneNumberFromString } from "libphonenumber-js/min";
import { COUNTRY_OF_OPERATOR } from "./operatorCountry";

/** What a person typed ("(202) 555-0199", "+44 7700 900123") as E.164, or null when it is no valid number. */
export function toE164(input: string, operator: string): string | null {
  const parsed = parsePhoneNumberFromString(input.trim(), COUNTRY_OF_OPERATOR[operator] ?? "US");
  return parsed?.isValid() ? parsed.number : null;
}

/** A number shown without giving it away: "•••• 0199". */
export function maskPhone(phone: string | null | undefined): string {
  const digits = (phone ?? "").replace(/\D/g, "");
  return digits.length >= 4 ? `•••• ${digits.slice(-4)}` : "••••";
}
