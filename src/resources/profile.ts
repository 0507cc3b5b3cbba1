import { z } from "zod";
import { isValidPhoneNumber, parsePhoneNumberWithError } from "libphonenumber-js";

/** US states, the District of Columbia and Puerto Rico: the places a US operator delivers SIMs to. */
export const US_STATES = [
  "AL",
  "AK",
  "AZ",
  "AR",
  "CA",
  "CO",
  "CT",
  "DE",
  "DC",
  "FL",
  "GA",
  "HI",
  "ID",
  "IL",
  "IN",
  "IA",
  "KS",
  "KY",
  "LA",
  "ME",
  "MD",
  "MA",
  "MI",
  "MN",
  "MS",
  "MO",
  "MT",
  "NE",
  "NV",
  "NH",
  "NJ",
  "NM",
  "NY",
  "NC",
  "ND",
  "OH",
  "OK",
  "OR",
  "PA",
  "PR",
  "RI",
  "SC",
  "SD",
  "TN",
  "TX",
  "UT",
  "VT",
  "VA",
  "WA",
  "WV",
  "WI",
  "WY",
] as const;

/** A US postal address as the plain form takes it (and maps autocomplete fills it in). */
export const addressSchema = z.object({
  line1: z.string().trim().min(1, "validation.street").max(100, "validation.atMostChars"),
  line2: z.string().trim().max(100, "validation.atMostChars").nullable(),
  city: z.string().trim().min(1, "validation.city").max(60, "validation.atMostChars"),
  state: z.enum(US_STATES, "choose a state"),
  zip: z
    .string()
    .trim()
    .regex(/^\d{5}(-\d{4})?$/, "5 digits, or ZIP+4 like 20001-1234"),
});
export type Address = z.output<typeof addressSchema>;

/** A phone number anyone could dial: valid for its country (US unless it starts with +), stored as E.164. */
export const contactPhoneSchema = z
  .string()
  .trim()
  .refine((v) => isValidPhoneNumber(v, "US"), "validation.contactPhone")
  .transform((v) => parsePhoneNumberWithError(v, "US").number);

/** The person's own profile (GET/PUT /api/v1/me/profile). */
export const profileSchema = z.object({
  name: z.string().trim().min(1, "validation.name").max(100, "validation.atMostChars"),
  contactEmail: z.email("validation.contactEmail").nullable(),
  contactPhone: contactPhoneSchema.nullable(),
  address: addressSchema.nullable(),
  language: z.enum(["en", "es"], "validation.language"),
});
export type Profile = z.output<typeof profileSchema>;

/** What GET answers: the stored profile, or what the accounts say until the person saves one. */
// A person with no account yet (staff, or a subscriber before their first line) has no name to prefill.
export const profileStateSchema = z.object({
  profile: profileSchema.extend({
    name: z.string().max(100),
    contactEmail: z.string().nullable(),
    contactPhone: z.string().nullable(),
  }),
  saved: z.boolean(),
});
