import { z } from "zod";
import { catalogPriceSchema } from "./common";
import { OVERAGE_ZONES, type OverageZone } from "./overageZones";

// What a plan charges past its allowance (issue 24, "Rating"), per usage type: a price per unit, or
// null for "capped" (the service stops at the allowance). Roaming zones may have rates of their own;
// a zone without its own rate for a type is capped past the allowance. Pure data + zod, shared by the
// catalog form, the plan cards and the rating in the ingest.

export { OVERAGE_ZONES, type OverageZone } from "./overageZones";

const price = catalogPriceSchema;

/** Data: `price` for every started `unitMb` MB (1 = per MB, 1024 = per GB). */
export const dataRateSchema = z
  .object({
    unitMb: z.number("validation.wholeMb").int("validation.wholeMb").min(1, "validation.atLeastMb").max(1_048_576),
    price,
  })
  .strict();
/** Voice: `price` per started minute (counted over the cycle, not per call). */
export const voiceRateSchema = z.object({ price }).strict();
/** SMS: `price` per message. */
export const smsRateSchema = z.object({ price }).strict();

export const typeRatesSchema = z
  .object({
    data: dataRateSchema.nullable().default(null),
    voice: voiceRateSchema.nullable().default(null),
    sms: smsRateSchema.nullable().default(null),
  })
  .strict();

export const overageSchema = typeRatesSchema
  .extend({
    /** Rates abroad, by zone; a zone left out is capped past the allowance. */
    roaming: z.partialRecord(z.enum(OVERAGE_ZONES), typeRatesSchema).default({}),
  })
  .strict();

/**
 * The same rates as a plan record carries them in answers: no input defaults (a written plan has
 * them filled by overageSchema, the write rule), so a response passes the serializer's fast check
 * (server/lib/responseSerializer.ts) like every other record. Missing keys read as capped (rateOf).
 */
// Not .strict() either: its catchall (never) has no fast check; an answer's unknown keys are dropped instead.
const storedTypeRatesSchema = z.object({
  data: dataRateSchema.strip().nullable().optional(),
  voice: voiceRateSchema.strip().nullable().optional(),
  sms: smsRateSchema.strip().nullable().optional(),
});
export const overageRecordSchema = storedTypeRatesSchema.extend({
  roaming: z.partialRecord(z.enum(OVERAGE_ZONES), storedTypeRatesSchema).optional(),
});
/** Rates as read (a missing type or zone reads as capped); what overageSchema writes is one of these. */
export type Overage = z.output<typeof overageRecordSchema>;
export type TypeRates = z.output<typeof storedTypeRatesSchema>;
export type UsageKind = "data" | "voice" | "sms";

/** The rate of one usage type in one zone ("home" or a roaming zone); null = capped. */
export function rateOf(
  overage: Overage | null | undefined,
  type: UsageKind,
  zone: string,
): { unit: number; amount: number; currency: string } | null {
  if (!overage) return null;
  const rates: TypeRates | undefined = zone === "home" ? overage : overage.roaming?.[zone as OverageZone];
  const rate = rates?.[type];
  if (!rate) return null;
  // The unit in the records' own unit: MB for data, seconds for voice (per minute), messages for SMS.
  const unit = type === "data" ? (rate as { unitMb: number }).unitMb : type === "voice" ? 60 : 1;
  return { unit, amount: rate.price.amount, currency: rate.price.currency };
}
