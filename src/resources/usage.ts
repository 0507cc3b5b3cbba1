import { z } from "zod";
import { planTranslationsSchema } from "./catalogTranslations";
import { e164Schema, idSchema, isoDate, isoDateTime, moneySchema } from "./common";
import { PLAN_KINDS } from "./plans";
import { LINE_STATUSES } from "./lines";

// Usage from the network: what mediation sends, and the meters a subscriber sees. Pure data + zod,
// shared by the backend (validation, OpenAPI) and the portal (types, units).

export const USAGE_TYPES = ["data", "voice", "sms"] as const;
export type UsageType = (typeof USAGE_TYPES)[number];

/** Where a record was used abroad; absent (null) at home. Roaming passes are sold per zone. */
export const ROAMING_ZONES = ["canada_mexico", "europe", "rest_of_world"] as const;

/** The unit of a record's quantity, by type: data in MB, voice in seconds, SMS in messages. */
export const RECORD_UNITS: Record<UsageType, "MB" | "seconds" | "messages"> = {
  data: "MB",
  voice: "seconds",
  sms: "messages",
};
/** The unit a meter shows (voice allowances are minutes; counted seconds are rounded up to whole minutes). */
export const METER_UNITS: Record<UsageType, "MB" | "minutes" | "messages"> = {
  data: "MB",
  voice: "minutes",
  sms: "messages",
};

/** The most one record may carry, by type: a guard against a unit mix-up in mediation (KB sent as MB). */
export const MAX_RECORD_QUANTITY: Record<UsageType, number> = { data: 102_400, voice: 86_400, sms: 100 };

export const MAX_INGEST_BATCH = 10_000;

/** A record id: letters, digits, - and _ (it is also the record's address in the API, /usage-records/{id}). */
export const RECORD_ID_PATTERN = /^[\w-]+$/;
export const RECORD_ID_MAX_LENGTH = 64;
/** E.164 by shape only (see msisdn below). */
export const RECORD_MSISDN_PATTERN = /^\+[1-9]\d{6,14}$/;

/**
 * One usage record (a CDR/xDR after mediation). `id` is mediation's own record id: sending it again
 * counts nothing twice. Quantities are whole units (mediation rounds a data session up to the MB).
 */
export const usageRecordInputSchema = z
  .object({
    id: z.string().min(1).max(RECORD_ID_MAX_LENGTH).regex(RECORD_ID_PATTERN, "letters, digits, - and _"),
    // E.164 by shape only: the numbering-plan check costs 13 µs a record (the whole budget of a
    // 100,000 records/s ingest), and a number that is no line of the operator is reported anyway.
    msisdn: z.string().regex(RECORD_MSISDN_PATTERN, "a phone number in E.164 form, such as +12025550101"),
    type: z.enum(USAGE_TYPES, "one of data, voice, sms"),
    startedAt: isoDateTime,
    quantity: z.number().int("a whole number of MB, seconds or messages").min(0),
    roamingZone: z.enum(ROAMING_ZONES).nullable().optional(),
  })
  .strict()
  .superRefine((record, ctx) => {
    const max = MAX_RECORD_QUANTITY[record.type];
    if (record.quantity > max)
      ctx.addIssue({
        code: "custom",
        path: ["quantity"],
        message: `at most ${max} ${RECORD_UNITS[record.type]} in one ${record.type} record`,
      });
  });
export type UsageRecordInput = z.output<typeof usageRecordInputSchema>;

export const usageBatchSchema = z
  .object({
    records: z
      .array(usageRecordInputSchema)
      .min(1, "at least one record")
      .max(MAX_INGEST_BATCH, `at most ${MAX_INGEST_BATCH} records per batch`),
  })
  .strict();

export const usageBatchResultSchema = z.object({
  /** Records in the batch. */
  received: z.number().int(),
  /** Records counted now (new ids of known lines). */
  counted: z.number().int(),
  /** Records whose id was counted before (a replay): nothing counted again. */
  duplicates: z.number().int(),
  /** Records whose number is not a line of this operator: not stored, not counted. */
  unknownLines: z.array(z.object({ index: z.number().int(), msisdn: z.string() })),
});
export type UsageBatchResult = z.output<typeof usageBatchResultSchema>;

/** One allowance meter of a line in its current cycle. `allowance` null = unlimited. */
export const meterSchema = z.object({
  type: z.enum(USAGE_TYPES),
  used: z.number().int(),
  allowance: z.number().int().nullable(),
  unit: z.enum(["MB", "minutes", "messages"]),
  /** The time of the newest record counted in this cycle; null before the first. */
  asOf: isoDateTime.nullable(),
  cycleStart: isoDate,
  /** The first day of the next cycle (the meter resets then). */
  cycleEnd: isoDate,
  /** Barred past the allowance this cycle (the plan has no rate, the prepaid balance ran out, or pay-as-you-go is off). */
  capped: z.boolean(),
  /** What usage past the allowance was charged this cycle; absent for someone who sees no money (a member, issue 28). */
  charged: moneySchema.optional(),
});
export type Meter = z.output<typeof meterSchema>;

/**
 * An account's data in its current cycle (issue 28): the pool its lines on a shared plan draw from
 * (null when none is on one) and each line's part. MB throughout; `allowance`/`left` null = unlimited.
 */
export const accountMetersSchema = z.object({
  accountId: idSchema,
  pool: z
    .object({
      planId: idSchema,
      planName: z.string(),
      allowance: z.number().int().nullable(),
      /** What the lines drew from the pool this cycle (past their own add-ons). */
      used: z.number().int(),
      left: z.number().int().nullable(),
      cycleStart: isoDate,
      cycleEnd: isoDate,
      /** Used up: the pool's lines stop (or pay the plan's rate) until the next cycle. */
      usedUp: z.boolean(),
    })
    .nullable(),
  lines: z.array(
    z.object({
      lineId: idSchema,
      msisdn: e164Schema,
      /** The line draws from the pool (its plan is a shared one). */
      shared: z.boolean(),
      /** Data the line used this cycle, MB. */
      used: z.number().int(),
      /** The owner's monthly limit of the line, MB; null = none. */
      cap: z.number().int().nullable(),
      /** The line's data is stopped this cycle (its limit reached, the pool used up, …). */
      capped: z.boolean(),
    }),
  ),
});
export type AccountMeters = z.output<typeof accountMetersSchema>;

/** What the home page shows for one line: the line, its plan and its meters. */
export const homeLineSchema = z.object({
  id: idSchema,
  msisdn: e164Schema,
  status: z.enum(LINE_STATUSES),
  accountId: idSchema,
  accountType: z.enum(PLAN_KINDS),
  /**
   * `translations`: the plan's Spanish name (issue 25), shown on a Spanish page. `price` is absent for
   * someone who may not open the line's account (a member of it, issue 28: no bills or money).
   */
  plan: z.object({
    id: idSchema,
    name: z.string(),
    translations: planTranslationsSchema,
    price: moneySchema.optional(),
  }),
  daysLeft: z.number().int(),
  meters: z.array(meterSchema),
  /** A prepaid line in grace (its renewal unpaid): the price that renews it (not for a member) and the day it is suspended unless topped up. Absent otherwise. */
  grace: z.object({ endsOn: isoDate, price: moneySchema.optional() }).optional(),
  /** Prepaid: the day the plan next renews from the balance (the first day of the next cycle not paid yet). Absent on postpaid lines. */
  renewsOn: isoDate.optional(),
  /** The day a cancellation scheduled for the end of the cycle ends the line. Absent when none is scheduled. */
  cancelsOn: isoDate.optional(),
});
export type HomeLine = z.output<typeof homeLineSchema>;

/** The money of an account beside its lines: prepaid balance, or postpaid amount due (open bills). */
export const homeAccountSchema = z.object({
  id: idSchema,
  type: z.enum(PLAN_KINDS),
  balance: moneySchema.optional(),
  amountDue: moneySchema.optional(),
  /** Postpaid: the oldest bill past its due date (the home's Pay now), absent when none is. */
  overdueBill: z.object({ id: idSchema, total: moneySchema, dueOn: isoDate }).optional(),
});

export type HomeAccount = z.output<typeof homeAccountSchema>;

export const homeSchema = z.object({ lines: z.array(homeLineSchema), accounts: z.array(homeAccountSchema) });
export type Home = z.output<typeof homeSchema>;

/** Usage of one line per day of a cycle, for the history chart: one row per day that had any. */
export const dailyUsageSchema = z.object({
  cycleStart: isoDate,
  cycleEnd: isoDate,
  days: z.array(z.object({ day: isoDate, data: z.number().int(), voice: z.number().int(), sms: z.number().int() })),
});
export type DailyUsage = z.output<typeof dailyUsageSchema>;
