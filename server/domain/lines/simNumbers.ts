import { randomBytes, randomInt } from "node:crypto";

/** The Luhn check digit of a digit string (ICCIDs end with one). */
export function luhnDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) d *= 2;
    if (d > 9) d -= 9;
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/** "89" (telecom) + "01" (US) + "410" (the issuer) + 11 random digits + the Luhn digit: 19 digits. */
const ESIM_PREFIX = "8901410";

/** A new eSIM profile's ICCID. Collisions are checked by the caller against the lines that exist. */
export function newEsimIccid(): string {
  const body = ESIM_PREFIX + Array.from({ length: 11 }, () => randomInt(10)).join("");
  return body + luhnDigit(body);
}

/** The address of the operator's eSIM provisioning server (SM-DP+), part of every activation code. */
export const SMDP_ADDRESS = "smdp.att.example";

/** An eSIM profile's activation code (LPA string, shown once as a QR code): the same for a swap and a new line. */
export const newActivationCode = () => `LPA:1$${SMDP_ADDRESS}$${randomBytes(16).toString("hex").toUpperCase()}`;
