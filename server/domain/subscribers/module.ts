import { sql, type SQL } from "drizzle-orm";
import { accessScope } from "#resources/access";
import { subscribersResource, type Subscriber, type SubscriberLine } from "#resources/subscribers";
import { verifiedUntilOf } from "../callerVerification/verification";
import { accounts } from "../../db/schema";
import { badRequest } from "../../errors";
import { words } from "../../i18n/words";
import { escapeLike } from "../../lib/sql";
import type { DomainModule, RowsContext } from "../../engine/types";
import { heldBy, PERSON_OF_ACCOUNT, tableSource, withoutOwner, type JoinableSelect } from "../tableSource";
import { parseCareQuery, type CareQuery } from "./careQuery";
import { subscriberRoutes } from "./routes";
import { lastFourDigits, maskEmail } from "../../lib/masks";

/** The account's id inside correlated subqueries (drizzle leaves a lone table's columns unqualified, and "id" would be the line's). */
const ACCOUNT_ID = sql.raw(`"accounts"."id"`);

/** Lines shown per account in a result (an account may hold more; `lineCount` says how many). */
const LINES_PER_ACCOUNT = 20;

/** Reads `q` or answers 400 at `q` (the factory calls search before it reads any row). */
function careQueryOf(q: string): CareQuery {
  const parsed = parseCareQuery(q);
  if ("error" in parsed)
    throw badRequest(words("subscribers.searchNotValid", { issue: parsed.error.message }), [parsed.error]);
  return parsed.query;
}

/**
 * The lines a digits search matches: any part of the number, or the end of an ICCID (the last digits
 * printed on the SIM card; a whole ICCID ends with itself). Both by trigram index (migration 0034).
 */
const lineMatchesDigits = (digits: string, alias: string) =>
  sql`(${sql.raw(alias)}.msisdn_digits like ${`%${digits}%`} or ${sql.raw(alias)}.iccid like ${`%${digits}`})`;

/** The accounts `q` finds (in the operator scope the factory adds). */
function searchAccounts(q: string): SQL {
  const query = careQueryOf(q);
  switch (query.kind) {
    case "digits":
      // Every account with a number containing the digits (four digits match thousands at 1M lines:
      // the list counts them up to 10,000 and estimates above, and the agent types more to narrow).
      return sql`${accounts.id} in (select l.account_id from lines l where ${lineMatchesDigits(query.digits, "l")})`;
    case "id":
      // One IN over a UNION (not ORs of subqueries, which make the planner scan every account).
      return sql`${accounts.id} in (select ${query.id}::uuid
        union all select l.account_id from lines l where l.id = ${query.id}
        union all select o.account_id from orders o where o.id = ${query.id})`;
    case "email":
      return sql`lower(${accounts.email}) like ${`${escapeLike(query.text)}%`}`;
    case "text":
      // Typo-tolerant: every account of every close name, by the name's index (0044: with the
      // operator beside it, the count reads no account row).
      return sql`${accounts.name} in ${closeNames(query.text)}`;
  }
}

/**
 * The distinct names (subscriber_names: tens of thousands of rows where accounts are a million) close
 * to what was typed: those sharing enough trigrams with it, and those whose words sound like every
 * typed word (Soundex: "Smaht" is "Smith", two trigrams of six). Each its own index lookup in a UNION
 * (an OR, like one with ILIKE, made the planner scan every name).
 */
const closeNames = (text: string) => sql`(
  select n.name from subscriber_names n where n.name % ${text}
  union
  select n.name from subscriber_names n where cardinality(name_sounds(${text})) > 0 and name_sounds(n.name) @> name_sounds(${text}))`;

/**
 * What the rows of a name search rank by: each close name's score, computed once per name, not per
 * account (12,472 accounts share the 576 names close to "Jordan Smith" at 1M). Sorted by relevance
 * (then perhaps by name), a page by number reads only the accounts it can show: the first `end` by their name's
 * score under the list's own WHERE, found in the index on (name, operator_code) that includes the
 * id (migration 0044) without reading an account, and then the rows of those. Another sort joins
 * the scores by name.
 */
const SCORED = sql.raw(`"close_names"`);
function rankByName(query: JoinableSelect, context?: RowsContext): JoinableSelect {
  const parsed = context?.q ? careQueryOf(context.q) : undefined;
  if (parsed?.kind !== "text") return query;
  // `offset 0` keeps the subquery whole: pulled up into the join, the score was computed per account.
  const scored = sql`(select c.name, (${nameScore(sql`c.name`, parsed.text)})::real as score from ${closeNames(parsed.text)} c offset 0)`;
  const page = context?.page;
  const [first, then, ...more] = page?.sort ?? [];
  if (
    page &&
    first?.field === "relevance" &&
    first.order === "desc" &&
    (!then || then.field === "name") &&
    !more.length
  ) {
    // The page's own order (relevance, then the name as the desk sorts it, then the id), on the index's columns.
    const byName = then ? sql`, ${accounts.name} ${sql.raw(then.order)}` : sql``;
    return query.innerJoin(
      sql`(select ${accounts.id} as id, s.score from ${accounts} inner join ${scored} s on s.name = ${accounts.name}
        where ${page.where ?? sql`true`} order by s.score desc${byName}, ${accounts.id} limit ${page.end}) ${SCORED}`,
      sql`${SCORED}.id = ${accounts.id}`,
    );
  }
  return query.leftJoin(sql`${scored} ${SCORED}`, sql`${SCORED}.name = ${accounts.name}`);
}

/**
 * How close a name is to what was typed, 0 to 1: trigram similarity of the whole, or of the best
 * matching part (word similarity); a name whose words sound like every typed word scores at least
 * 0.5, so it comes after near-exact spellings and before names that merely share a few letters.
 */
function nameScore(name: SQL, text: string): SQL<number> {
  return sql<number>`greatest(similarity(${name}, ${text}), word_similarity(${text}, ${name}),
    case when name_sounds(${name}) @> name_sounds(${text}) and cardinality(name_sounds(${text})) > 0 then 0.5 else 0 end)`;
}

/** How well the account matches (a name search: its name's score, rankByName), so the closest come first. */
function relevanceOf(query: CareQuery | undefined): SQL<number> {
  if (query?.kind !== "text") return sql<number>`1::real`;
  return sql<number>`coalesce(${SCORED}.score, 0)::real`;
}

/** The account's lines as JSON: those the search matched when it was a number or a line id, otherwise all. */
function linesOf(query: CareQuery | undefined): SQL<SubscriberLine[]> {
  const match =
    query?.kind === "digits"
      ? lineMatchesDigits(query.digits, "l")
      : query?.kind === "id"
        ? sql`(l.id = ${query.id} or not exists (select 1 from lines m where m.account_id = ${ACCOUNT_ID} and m.id = ${query.id}))`
        : sql`true`;
  return sql<
    SubscriberLine[]
  >`(select coalesce(json_agg(json_build_object('id', x.id, 'msisdn', x.msisdn, 'iccid', x.iccid, 'simType', x.sim_type, 'status', x.status) order by x.msisdn), '[]'::json)
    from (select l.id, l.msisdn, l.iccid, l.sim_type, l.status from lines l where l.account_id = ${ACCOUNT_ID} and ${match} order by l.msisdn limit ${LINES_PER_ACCOUNT}) x)`;
}

function selectionFor(query: CareQuery | undefined) {
  return {
    id: accounts.id,
    personId: PERSON_OF_ACCOUNT,
    name: accounts.name,
    email: accounts.email,
    phone: accounts.phone,
    type: accounts.type,
    status: accounts.status,
    lineCount: sql<number>`(select count(*)::int from lines c where c.account_id = ${ACCOUNT_ID} and c.status <> 'terminated')`,
    lines: linesOf(query),
    relevance: relevanceOf(query).as("relevance"),
    ownerUid: accounts.ownerUid,
    createdAt: accounts.createdAt,
    updatedAt: accounts.updatedAt,
  };
}

export type SubscriberRow = Omit<Subscriber, "createdAt" | "updatedAt" | "verifiedUntil"> & {
  ownerUid: string | null;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * Care search (issue 12): accounts of the operator found by any part of a number, a name with typos,
 * an email, an ICCID, or an account, line or order id; each with its matching lines. Staff only.
 */
export const subscribersModule: DomainModule<SubscriberRow> = {
  source: tableSource({
    table: accounts,
    selection: (context) => selectionFor(context?.q ? careQueryOf(context.q) : undefined),
    columns: {
      name: accounts.name,
      createdAt: accounts.createdAt,
      type: accounts.type,
      status: accounts.status,
      personId: PERSON_OF_ACCOUNT,
      // The select's output column (ORDER BY may name it bare): the search's score of each row.
      relevance: sql`"relevance"`,
    },
    unkeyedSorts: ["relevance"],
    search: searchAccounts,
    rowJoins: rankByName,
    // The holder: what a verification (issue 27) is about. Staff read every account ("all").
    owner: accounts.ownerUid,
    toRecord: (row) => toRecord(row, null),
    ownerUids: heldBy,
  }),
  present: async (db, principal, rows) => {
    const verified = await verifiedUntilOf(
      db,
      principal,
      rows.map((row) => row.personId),
    );
    const unmasked = accessScope(principal, subscribersResource, "profile") === "all";
    return rows.map((row) => {
      const until = verified.get(row.personId) ?? null;
      const record = toRecord(row, until);
      return unmasked || until
        ? record
        : { ...record, email: maskEmail(record.email), phone: lastFourDigits(record.phone) };
    });
  },
  extraRoutes: subscriberRoutes,
};

function toRecord(row: SubscriberRow, verifiedUntil: Date | null): Subscriber {
  return {
    ...withoutOwner(row),
    relevance: Math.round(Number(row.relevance) * 1000) / 1000,
    verifiedUntil: verifiedUntil?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
