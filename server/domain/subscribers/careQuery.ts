import { words, type Words } from "../../i18n/words";

/** What the care search box was given, read the way an agent means it. */
export type CareQuery =
  /** A phone number in any format or part of one (4+ digits), or a whole ICCID. */
  | { kind: "digits"; digits: string }
  /** An account, line or order id. */
  | { kind: "id"; id: string }
  /** The start of an email address: one word with an @, a dot, an underscore, a plus or a digit. */
  | { kind: "email"; text: string }
  /** A name (typo-tolerant). */
  | { kind: "text"; text: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An id read out or pasted without its hyphens (the account number as some systems print it). */
const BARE_UUID = /^([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/i;
/** Only what people type in numbers: digits, spaces, + ( ) . - */
const PHONE_LIKE = /^[\d\s()+.-]+$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
export const MIN_DIGITS = 4;

/** Reads `q` (already trimmed, at most 100 characters) or says what is wrong with it, at `q`. */
/** What is wrong with the query, at its field: words, so the search's detail can repeat them. */
type QueryError = { path: "q"; message: Words };

export function parseCareQuery(q: string): { query: CareQuery } | { error: QueryError } {
  const text = q.trim();
  if (CONTROL.test(text)) return { error: { path: "q", message: words("subscribers.q.control") } };
  if (text.length < 2) return { error: { path: "q", message: words("subscribers.q.tooShort") } };
  if (UUID.test(text)) return { query: { kind: "id", id: text.toLowerCase() } };
  const bare = BARE_UUID.exec(text);
  if (bare && /[a-f]/i.test(text)) return { query: { kind: "id", id: bare.slice(1).join("-").toLowerCase() } };
  if (PHONE_LIKE.test(text)) {
    const digits = text.replace(/\D/g, "");
    if (digits.length < MIN_DIGITS)
      return { error: { path: "q", message: words("subscribers.q.fewDigits", { minimum: MIN_DIGITS }) } };
    return { query: { kind: "digits", digits } };
  }
  // One word with an @, a dot, an underscore, a plus or a digit is the start of an email address
  // ("jordan.smith", "sam@ex"); words without them are a name.
  if (!/\s/.test(text) && /[@._+\d]/.test(text)) return { query: { kind: "email", text: text.toLowerCase() } };
  return { query: { kind: "text", text } };
}
