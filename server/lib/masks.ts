/**
 * How the backend shows a contact point it may not disclose in full (an unverified caller's details,
 * the outbox log, where a code went): enough for a person to recognise it, not to read it off.
 */

/** "a•••@example.com": the first letter and the domain. */
export function maskEmail(email: string | null | undefined): string | null {
  if (!email) return null;
  const at = email.lastIndexOf("@");
  return at > 0 ? `${email[0]}•••${email.slice(at)}` : "•••";
}

/** "•••0101": the last 4 digits of a number. */
export function lastFourDigits(phone: string | null | undefined): string | null {
  return phone ? `•••${phone.slice(-4)}` : null;
}
