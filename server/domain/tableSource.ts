import { and, eq, getTableColumns, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Principal } from "#resources/access";
import type { SourceScope } from "#resources/define";
import type { Executor } from "../audit";
import { accountMemberLines, accountMembers, accounts, callerVerifications } from "../db/schema";
import type { RecordSource, RowsContext } from "../engine/types";

/** A table of one operator's rows: every domain table keeps its operator in `operator_code`. */
type OperatorTable = PgTable & { operatorCode: AnyColumn };

/**
 * The calls a module's joins make on its select: drizzle's builder, whose full type depends on the
 * joins (so the engine takes the result untyped, RecordSource.rows), narrowed to what joins need. A
 * joined table may be a derived table written as SQL (`(select …) alias`).
 */
export interface JoinableSelect {
  innerJoin(table: PgTable | SQL, on: SQL | undefined): JoinableSelect;
  leftJoin(table: PgTable | SQL, on: SQL | undefined): JoinableSelect;
  $dynamic(): unknown;
}

/** What a module says about its table; the helper makes the rows, what a count reads and the scope from it. */
export interface TableSourceSpec<Row> extends Omit<
  RecordSource<Row>,
  "rows" | "matching" | "id" | "table" | "scope" | "ownerUids" | "knowsHolders" | "knowsAccounts" | "knowsLines"
> {
  table: OperatorTable;
  /** The record's id column; the table's `id` when absent. */
  id?: AnyColumn;
  /** What a row holds (it may depend on the list's `q`); the table's columns when absent. */
  selection?: Record<string, unknown> | ((context?: { q?: string }) => Record<string, unknown>);
  /** Joins of the rows and of `matching` alike: what the columns, search and scope read. */
  joins?: (query: JoinableSelect) => JoinableSelect;
  /**
   * Joins of the rows only: what a record shows but no list filters on (the count stays lean); they
   * may depend on the list's `q` (what a search ranks by).
   */
  rowJoins?: (query: JoinableSelect, context?: RowsContext) => JoinableSelect;
  /**
   * The column naming the row's account: rows join the account, carry its holder as `ownerUid`, and
   * a subscriber's ("own") are those of the accounts they hold.
   */
  account?: AnyColumn;
  /** The column naming the row's line, for rows of one line: members of the account reach those of their lines (issue 28). */
  line?: AnyColumn;
  /** The column of the uid "own" narrows to when it is not the account's holder (a card's holder, a notification's recipient). */
  owner?: AnyColumn;
  /** What a subscriber sees of the operator's rows when not all of them (the catalog: what is on sale). */
  forSubscribers?: SQL;
  /** Who hears the row's live events; the account's holder by default for account rows, nobody otherwise. */
  ownerUids?: (row: NoInfer<Row>) => string[];
}

/** The holder of a row that carries one (`ownerUid`, null when no one holds it yet). */
export const heldBy = (row: { ownerUid: string | null }): string[] => (row.ownerUid ? [row.ownerUid] : []);

/**
 * A row without the holder `account` joins in: records show their account, not who holds it. A rest
 * copy, not `delete`: a deleted key turns the object into a slow dictionary for every later read
 * (the response check, JSON).
 */
export function withoutOwner<Row extends { ownerUid: string | null }>({
  ownerUid: _holder,
  ...row
}: Row): Omit<Row, "ownerUid"> {
  return row;
}

/** The person an account belongs to: its holder, or the account itself while no one holds it (index in migration 0034). */
export const PERSON_OF_ACCOUNT = sql<string>`coalesce(${accounts.ownerUid}, ${accounts.id}::text)`;

/** The person an account of the operator stands for, or null when there is no such account. */
export async function personOfAccount(db: Executor, operator: string, accountId: string): Promise<string | null> {
  const [row] = await db
    .select({ person: PERSON_OF_ACCOUNT })
    .from(accounts)
    .where(and(eq(accounts.id, accountId), eq(accounts.operatorCode, operator)))
    .limit(1);
  return row?.person ?? null;
}

/**
 * The people (PERSON_OF_ACCOUNT) a staff member verified as callers and whose verification still runs (issue 27): the
 * principal's values stay plain parameters, so prepared reads (server/engine/preparedRead.ts) keep them.
 */
export const verifiedPeople = (principal: Pick<Principal, "operator" | "uid">) =>
  sql`select ${callerVerifications.subscriberUid} from ${callerVerifications} where ${callerVerifications.operatorCode} = ${principal.operator} and ${callerVerifications.agentUid} = ${principal.uid} and ${callerVerifications.verifiedUntil} > now()`;

/**
 * The accounts the principal manages (issue 28): read from account_members on every request, never
 * from a token or a cache, so removing a manager ends their access at once on every instance. The
 * principal's values stay plain parameters (prepared reads keep them).
 */
export const managedAccounts = (principal: Pick<Principal, "operator" | "uid">) =>
  sql`select ${accountMembers.accountId} from ${accountMembers} where ${accountMembers.operatorCode} = ${principal.operator} and ${accountMembers.memberUid} = ${principal.uid} and ${accountMembers.role} = 'manager'`;

/** The lines assigned to the principal as a member of their accounts (issue 28), read per request as above. */
export const memberLines = (principal: Pick<Principal, "operator" | "uid">) =>
  sql`select ${accountMemberLines.lineId} from ${accountMemberLines} inner join ${accountMembers} on ${accountMembers.id} = ${accountMemberLines.memberId} where ${accountMembers.operatorCode} = ${principal.operator} and ${accountMembers.memberUid} = ${principal.uid} and ${accountMembers.role} = 'member'`;

/**
 * The operator scope every module applies: always its operator; "own" narrows to the principal's
 * rows (by `owner`), "verified" to those of people who verified themselves to the principal (and
 * the principal's own, a file they uploaded), and a subscriber sees only `forSubscribers` of the
 * rest. For rows of an account (`owner` is the account's holder), "own+managers" adds the accounts
 * the principal manages and "own+people" also the rows of lines assigned to them as a member (by
 * `line`); the declaration decides which an action gets (`ownScope`, src/resources/access.ts).
 * Other operators' and other subscribers' rows are simply not found (404, never 403).
 */
export function operatorScope(
  operator: AnyColumn,
  { owner, forSubscribers, line }: { owner?: AnyColumn; forSubscribers?: SQL; line?: AnyColumn } = {},
): (principal: Principal, scope: SourceScope) => SQL {
  // Rows of an account are verified by its person, so a caller whose account no one holds yet (an
  // imported customer) can be verified too; other owners (a card's holder) are people already.
  const person = owner === accounts.ownerUid ? PERSON_OF_ACCOUNT : owner;
  return (principal, scope) => {
    const sameOperator = eq(operator, principal.operator);
    if (scope === "verified") {
      // The registry refuses such a declaration at start-up (server/engine/registry.ts); never widen silently.
      if (!owner) throw new Error('the "verified" scope needs a source that knows each record\'s holder');
      return and(sameOperator, or(eq(owner, principal.uid), sql`${person} in (${verifiedPeople(principal)})`))!;
    }
    if (owner && (scope === "own+managers" || scope === "own+people") && owner === accounts.ownerUid) {
      const mine = or(eq(owner, principal.uid), sql`${accounts.id} in (${managedAccounts(principal)})`);
      if (scope === "own+managers") return and(sameOperator, mine)!;
      // The registry refuses such a declaration at start-up (server/engine/registry.ts); never widen silently.
      if (!line) throw new Error('the "own+people" scope needs a source that knows each record\'s line');
      return and(sameOperator, or(mine, sql`${line} in (${memberLines(principal)})`))!;
    }
    if (owner && scope !== "all") return and(sameOperator, eq(owner, principal.uid))!;
    if (forSubscribers && principal.role === "subscriber") return and(sameOperator, forSubscribers)!;
    return sameOperator;
  };
}

/**
 * A module's record source over one table of the operator: the rows (with its joins and, for rows
 * of an account, the account and its holder), the count over the same joins, and the scope. The
 * module keeps only what is its own: columns, search and how a row becomes a record.
 */
export function tableSource<Row>({
  table,
  id,
  selection,
  joins = (query) => query,
  rowJoins = (query) => query,
  account,
  owner,
  line,
  forSubscribers,
  ownerUids,
  ...own
}: TableSourceSpec<Row>): RecordSource<Row> {
  const joined = (query: JoinableSelect) => {
    const withJoins = joins(query);
    return account ? withJoins.innerJoin(accounts, eq(accounts.id, account)) : withJoins;
  };
  const fieldsOf = (context?: { q?: string }) => {
    const fields = typeof selection === "function" ? selection(context) : (selection ?? getTableColumns(table));
    return account ? { ...fields, ownerUid: accounts.ownerUid } : fields;
  };
  return {
    rows: (db: Executor, context) =>
      rowJoins(joined(db.select(fieldsOf(context) as never).from(table)), context).$dynamic(),
    matching: (db: Executor, fields) => joined(db.select(fields ?? { one: sql`1` }).from(table)).$dynamic(),
    id: id ?? (table as unknown as { id: AnyColumn }).id,
    table,
    scope: operatorScope(table.operatorCode, {
      owner: owner ?? (account ? accounts.ownerUid : undefined),
      forSubscribers,
      line,
    }),
    knowsHolders: Boolean(owner ?? account),
    knowsAccounts: (owner ?? (account ? accounts.ownerUid : undefined)) === accounts.ownerUid,
    knowsLines: Boolean(line),
    ownerUids: ownerUids ?? (account ? (heldBy as (row: Row) => string[]) : () => []),
    ...own,
  };
}
