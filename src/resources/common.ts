import { z } from "zod";

/** Money is integer minor units plus an ISO 4217 currency; never a float. */
export const moneySchema = z.object({
  amount: z.number().int(),
  currency: z.string().regex(/^[A-Z]{3}$/, "an ISO 4217 code"),
});
export type Money = z.output<typeof moneySchema>;

export const msisdnSchema = z.string().regex(/^\+[1-9]\d{6,14}$/, "an E.164 number such as +12025550101");
export const isoDateTime = z.iso.datetime({ offset: true });
export const idSchema = z.uuid();
export const isoDate = z.iso.date("a date as YYYY-MM-DD");
