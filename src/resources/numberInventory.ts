import { z } from "zod";
import { isoDateTime } from "./common";

// The operator's number inventory (issue 28): the free numbers of an area code, and a reservation of
// one for the person who picked it. Served by server/domain/numberInventory/routes.ts (not a record
// resource: a number is not a record anyone owns, and the lookup is by area code).

/** A US area code: three digits, not starting with 0 or 1. */
export const areaCodeSchema = z.string().regex(/^[2-9]\d{2}$/, "validation.areaCode");

/** A US mobile number in E.164: +1, a 3-digit area code and 7 digits (neither part starting with 0 or 1). */
export const usMsisdnSchema = z.string().regex(/^\+1[2-9]\d{2}[2-9]\d{6}$/, "validation.usMsisdn");

/** How long a picked number stays reserved for the person who picked it. */
export const RESERVATION_MINUTES = 15;
/** How long a released number (a cancellation, a change of number) rests before it is offered again. */
export const QUARANTINE_DAYS = 90;

export const availableNumberSchema = z.object({ msisdn: usMsisdnSchema, areaCode: areaCodeSchema });
export type AvailableNumber = z.output<typeof availableNumberSchema>;

export const numberReservationSchema = z.object({
  msisdn: usMsisdnSchema,
  areaCode: areaCodeSchema,
  reservedUntil: isoDateTime,
});
export type NumberReservation = z.output<typeof numberReservationSchema>;
