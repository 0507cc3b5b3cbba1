import { z } from "zod";
import { isoDateTime } from "./common";

/**
 * The care PIN: digits a subscriber chooses under Security and customer care asks for when they
 * call (issue 27). One rule for the portal's form and the server (`PUT /api/v1/me/care-pin`), so both
 * refuse the same PINs with the same words.
 */
export const CARE_PIN_MIN_DIGITS = 4;
export const CARE_PIN_MAX_DIGITS = 8;

/**
 * Whether a PIN is the first thing a caller pretending to be the subscriber would try: one digit all
 * the way (1111) or a run up or down (1234, 4321; 7890 and 2109 count, wrapping from 9 to 0).
 */
export function isGuessableCarePin(pin: string): boolean {
  const steps = new Set<number>();
  for (let i = 1; i < pin.length; i++) steps.add((Number(pin[i]) - Number(pin[i - 1]) + 10) % 10);
  const [step] = [...steps];
  return steps.size === 1 && (step === 0 || step === 1 || step === 9);
}

/** A PIN as the subscriber types it: 4 to 8 digits, not one digit repeated, not a run. */
export const carePinSchema = z
  .string({ error: "validation.carePinDigits" })
  // ASCII digits only (`\d` without the u flag), so a PIN reads the same on a phone's keypad.
  .regex(new RegExp(`^\\d{${CARE_PIN_MIN_DIGITS},${CARE_PIN_MAX_DIGITS}}$`), {
    message: "validation.carePinDigits",
    abort: true, // one message per PIN: "12" is too short, not also "too easy"
  })
  .refine((pin) => !isGuessableCarePin(pin), "validation.carePinGuessable");

/** `PUT /api/v1/me/care-pin`: set or change the caller's PIN (needs a recent sign-in). */
export const carePinBodySchema = z.object({ pin: carePinSchema }).strict();
export type CarePinBody = z.output<typeof carePinBodySchema>;

/** `GET` and `PUT /api/v1/me/care-pin`: whether a PIN is set and since when, never the PIN. */
export const carePinStateSchema = z.object({
  set: z.boolean(),
  /** When it was last set or changed; null while none is. */
  updatedAt: isoDateTime.nullable(),
});
export type CarePinState = z.output<typeof carePinStateSchema>;
