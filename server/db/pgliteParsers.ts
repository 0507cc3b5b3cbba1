import { types, type PGlite, type ParserOptions, type QueryOptions, type Transaction } from "@electric-sql/pglite";
import { DRIZZLE_TEXT_TYPES } from "./drizzleTextTypes";

// drizzle-orm reads dates, times, intervals and a few arrays as the text PostgreSQL sends (it parses
// them itself), and asks PGlite for that by passing its own parsers with every query. PGlite then
// copies all its ~320 parsers into a new map for that one query: about 80 µs of CPU, more than a
// tenth of a one-row read (bench/README.md, "The API's own cost"). So drizzle's choice is made once,
// on the instance, and drizzle's per-query parsers are dropped on the way in. Raw SQL (pg-boss's,
// through executeSql) keeps PGlite's own parsing by asking for it per query, as drizzle did.

const textTypeIds = new Set(Object.keys(DRIZZLE_TEXT_TYPES));
const asText = (value: string) => value;

/** Options without drizzle's per-query parsers, when those ask only for what the instance already does. */
function withoutTextParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  const parsers = options?.parsers;
  if (!parsers) return options;
  // A drizzle version that asks for more than these keeps its parsers (slower, still right).
  for (const id in parsers) if (!textTypeIds.has(id)) return options;
  const rest = { ...options };
  delete rest.parsers;
  return rest;
}

const textQueryOf =
  (target: { query: Transaction["query"] }): Transaction["query"] =>
  (text, params, options) =>
    target.query(text, params, withoutTextParsers(options));

/**
 * Sets drizzle's text parsing on `client` once, and returns what to hand to drizzle (the client's
 * query and transaction, minus the per-query parsers) and the parsers raw SQL passes to get PGlite's
 * own values (Date objects) back.
 */
export function readDatesAsText(client: PGlite): { drizzleClient: PGlite; ownParsers: ParserOptions } {
  const ownParsers: ParserOptions = {};
  for (const [id, element] of Object.entries(DRIZZLE_TEXT_TYPES)) {
    // PGlite's array parsers read their element's parser from the instance when they run; after the
    // change below that is the text one, so the own array parsers are bound to the own element parser.
    ownParsers[Number(id)] =
      element === null
        ? client.parsers[id]!
        : (value: string, typeId?: number): unknown =>
            types.arrayParser(value, ownParsers[element] ?? client.parsers[element]!, typeId ?? Number(id));
  }
  for (const id of textTypeIds) client.parsers[id] = asText;

  // drizzle-orm/pglite calls only these two (its session and transactions); anything else would throw.
  const drizzleClient = {
    query: textQueryOf(client),
    transaction: <T>(callback: (tx: Transaction) => Promise<T>) =>
      client.transaction((tx) => callback(Object.create(tx, { query: { value: textQueryOf(tx) } }) as Transaction)),
  } as unknown as PGlite;
  return { drizzleClient, ownParsers };
}
