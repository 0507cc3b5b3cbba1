import { z } from "zod";
import { isValidPhoneNumber } from "libphonenumber-js/min";

// The small shapes every resource and route shares, each declared once.

/** Money is integer minor units plus an ISO 4217 currency; never a float. */
export const moneySchema = z.object({
  amount: z.number().int(),
  currency: z.string().regex(/^[A-Z]{3}$/, "validation.currencyCode"),
});
export type Money = z.output<typeof moneySchema>;

/**
 * A catalog price (plans, add-ons): whole cents, zero or more, at most 100,000.00. Also keeps what a
 * client sends within the integer column that stores it: past it PostgreSQL refuses the row.
 */
export const catalogPriceSchema = moneySchema.extend({
  amount: z.number().int("validation.wholeCents").nonnegative("validation.zeroOrMore").max(10_000_000),
});

/** A plan's monthly allowance (MB, minutes or messages); null, where allowed, is unlimited. */
export const allowanceSchema = z.number().int().nonnegative().max(10_000_000, "validation.allowanceMax");

/**
 * Numbers already found valid: the numbering plan's check costs about as much as the rest of a
 * record read (the backend checks every record it answers with), and an answer for a given string
 * never changes. Only valid ones are kept, at most 10,000 (then it starts over).
 */
const validPhoneNumbers = new Set<string>();
function isKnownValidPhoneNumber(value: string): boolean {
  if (validPhoneNumbers.has(value)) return true;
  if (!/^\+[1-9]\d{6,14}$/.test(value) || !isValidPhoneNumber(value)) return false;
  if (validPhoneNumbers.size >= 10_000) validPhoneNumbers.clear();
  validPhoneNumbers.add(value);
  return true;
}

/** A phone number in E.164 form that the numbering plan knows (lines' numbers, sign-in phones). */
export const e164Schema = z.string().max(16).refine(isKnownValidPhoneNumber, "validation.e164");

export const isoDateTime = z.iso.datetime({ offset: true });
export const idSchema = z.uuid();
export const isoDate = z.iso.date("validation.isoDate");

/** Why a person did something on someone else's behalf (kept in the audit trail). */
export const reasonSchema = z.string().trim().min(3, "validation.reason").max(500);
