import { z } from "zod";

/**
 * Account alerts (issue 27): the changes a thief makes to take a number or an account over. Each
 * one alerts every contact point the account had before it (inbox, email, SMS) with a "This wasn't
 * me" link, valid ALERT_LINK_DAYS days and usable once, that needs no sign-in.
 */
export const ACCOUNT_CHANGES = [
  "sim-swap",
  "esim-transfer",
  "port-out-pin",
  "number-lock",
  "email-change",
  "phone-change",
  "sign-in-method",
  "mfa-change",
] as const;
export type AccountChange = (typeof ACCOUNT_CHANGES)[number];

/** How long a "This wasn't me" link works. */
export const ALERT_LINK_DAYS = 7;

/** The portal page a link opens; the token travels in the fragment, so it never reaches a server log or a Referer. */
export const THIS_WASNT_ME_PATH = "/this-wasnt-me";
export const thisWasntMeLink = (token: string) => `${THIS_WASNT_ME_PATH}#${token}`;

/** A link's token: 32 random bytes in base64url (43 characters). */
export const alertTokenSchema = z
  .string({ error: "validation.alertLink" })
  .regex(/^[A-Za-z0-9_-]{43}$/, "validation.alertLink");

/** `POST /api/v1/public/this-wasnt-me`: the token of the link pressed. No sign-in. */
export const thisWasntMeBodySchema = z.object({ token: alertTokenSchema }).strict();
export type ThisWasntMeBody = z.output<typeof thisWasntMeBodySchema>;

/** What pressing "This wasn't me" did, for the page to say in words. */
export const thisWasntMeResultSchema = z.object({
  /** The account's lines now locked against transfer (port-out PINs and SIM swaps refused). */
  linesLocked: z.number().int().nonnegative(),
  /** Every session signed out (tokens issued before now stop working on every backend instance). */
  signedOut: z.literal(true),
  /** An urgent fraud ticket was opened for care (false only when the person has no account to open it on). */
  ticketOpened: z.boolean(),
});
export type ThisWasntMeResult = z.output<typeof thisWasntMeResultSchema>;
