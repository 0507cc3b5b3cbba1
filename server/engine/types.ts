import type { Locale } from "#i18n/dictionaries";
import type { AnyColumn, SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Principal } from "#resources/access";
import type { SourceScope } from "#resources/define";
import type { Executor } from "../audit";
import type { ColumnMap } from "../lib/listSql";
import type { Effects } from "./effects";
import type { EngineServices } from "./services";

/** A record as the API returns it: its declared fields, always with an id. */
export type ApiRecord = Record<string, unknown> & { id: string };

/**
 * How a resource's records are read: the query (tables, joins, the columns a list may filter, sort
 * and search on) and who may see which. The route factory adds the filters, sort, paging and the
 * `id = ?` of one record; it never knows the tables.
 */
/**
 * What a list passes to its rows: its `q`, and for a page by number the page it reads (its WHERE,
 * its sort and the last row it needs, offset + limit), so a module may rank only what the page can
 * show (care search: the first accounts by their name's score).
 */
export interface RowsContext {
  q?: string;
  page?: { where: SQL | undefined; sort: readonly { field: string; order: "asc" | "desc" }[]; end: number };
}

export interface RecordSource<Row = unknown> {
  /**
   * `SELECT … FROM … JOIN …` of the records, dynamic so the factory can add WHERE, ORDER BY, LIMIT.
   * A list passes its `q`, so a module may shape rows by the search (care search: the matching lines).
   * Untyped on purpose: each module's builder type depends on its tables and joins, and domain code
   * chains it as its own; the engine reads it through one shape (./recordQuery.ts).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- drizzle's dynamic select of the module's own tables (see above)
  rows(db: Executor, context?: RowsContext): any;
  /**
   * `SELECT 1 FROM …` with the joins a filter or the scope reads: what the engine counts (exactly, up
   * to a bound, or as the planner estimates it) or probes for existence (untyped like `rows`). Given
   * `fields`, it selects those instead of `1` (a keyset page's cursor: the last row's sort values).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- drizzle's dynamic select, as for `rows`
  matching(db: Executor, fields?: Record<string, SQL>): any;
  /** The record's id column: `id = ?`, and the last sort key so pages never overlap. */
  id: AnyColumn;
  /** The table whose row an action locks (FOR UPDATE OF it), so joined rows stay unlocked. */
  table: PgTable;
  /** The SQL behind every field a list may filter or sort by. */
  columns: ColumnMap;
  /**
   * Fields that sort by other SQL than they filter on: a ticket's priority filters by its name
   * ('urgent') and sorts by its rank (urgent first). Absent fields sort by `columns`.
   */
  sortColumns?: ColumnMap;
  /** Sorts that name an output column of `rows` (a search's score): keyset pages cannot continue after them. */
  unkeyedSorts?: readonly string[];
  /** Rows the principal may reach with this scope: always its operator; "own" narrows to the principal's records. */
  scope(principal: Principal, scope: SourceScope): SQL;
  /** Whether `scope` can narrow to each record's holder, as the "verified" scope needs (else it throws). */
  knowsHolders?: boolean;
  /** Whether the rows are an account's (its holder owns them), as "own+managers" needs (else it stays the holder's). */
  knowsAccounts?: boolean;
  /** Whether the rows each name a line, as "own+people" needs for members (else it throws). */
  knowsLines?: boolean;
  /** The `q` search, when the resource has one. */
  search?(q: string): SQL | undefined;
  toRecord(row: Row): ApiRecord;
  /** The subscribers who own the row (live events reach them; references inherit them). */
  ownerUids(row: Row): string[];
}

/** What a write handler works with: its transaction, who asks, and the effects it may cause. */
export interface WriteContext {
  tx: Executor;
  principal: Principal;
  requestId: string;
  effects: Effects;
  services: EngineServices;
}

/** Creating, editing and deleting records of a resource (documents: everything; domain tables: as the module allows). */
export interface RecordWriter<Row = unknown> {
  /** Inserts a record from a validated body (references already checked, their owners given); returns its id. */
  create?(
    ctx: WriteContext,
    body: Record<string, unknown>,
    referenceOwners: Record<string, string | null>,
  ): Promise<string>;
  edit?(
    ctx: WriteContext,
    row: Row,
    body: Record<string, unknown>,
    referenceOwners: Record<string, string | null>,
  ): Promise<void>;
  remove?(ctx: WriteContext, row: Row): Promise<void>;
  /** Sets fixed values (a declared action's `set`). */
  set?(ctx: WriteContext, row: Row, values: Record<string, unknown>): Promise<void>;
}

/**
 * A domain module: the query and the writes of one resource. The route factory serves every
 * resource through one (documents get the generic one) and owns HTTP, access, audit, idempotency
 * and live updates; a module never registers list, show or action routes of its own.
 */
export interface DomainModule<Row = unknown> {
  source: RecordSource<Row>;
  writer?: RecordWriter<Row>;
  /** Routes the record API cannot express (staff invitations create Firebase users): each documented in the module. */
  extraRoutes?(services: EngineServices): FastifyPluginAsyncZod;
  /** Run once when the app starts (the declared indexes of documents). */
  prepare?(db: Executor): Promise<void>;
  /**
   * The records as this principal may read them, when that depends on who asks (care search masks a
   * holder's contact details until the caller is verified): list, show and action answers use it
   * instead of `source.toRecord`.
   */
  present?(db: Executor, principal: Principal, rows: Row[]): Promise<ApiRecord[]>;
}

/** One line of a quote: what it is (an i18n key and its values) and, when it costs or credits, how much. */
export interface QuoteLine {
  label: string;
  params?: Record<string, string | number>;
  amount?: { amount: number; currency: string };
}

/** What an action would do, answered by its preview with no side effect. */
export interface Quote {
  /** i18n key of one sentence that says what will happen, with its values. */
  summary: string;
  params?: Record<string, string | number>;
  lines: QuoteLine[];
  total?: { amount: number; currency: string } | null;
}

/** What an action handler is given: the locked row, the record as the API shows it, and the validated input. */
export interface ActionContext<Row = unknown, Input = Record<string, unknown>> extends WriteContext {
  row: Row;
  record: ApiRecord;
  input: Input;
  reason: string | null;
  /** The caller's language (Accept-Language), given to previews: for names a quote carries as values, such as a plan's. */
  locale?: Locale;
}

/** What a handler may hand back: a value shown once, and the order it placed. */
export interface ActionOutcome {
  result?: Record<string, unknown>;
  order?: { id: string; type: string; state: string };
  /**
   * The action was not carried out but filed for someone else to decide (the two-person rule): the
   * route answers 202 with this record (of the shape the declaration's `accepted` gives) instead.
   */
  accepted?: Record<string, unknown>;
}

/** What an action's guards see: no transaction, no record yet (they run before and after it). */
export interface ActionGuardContext<Input = Record<string, unknown>> {
  principal: Principal;
  services: EngineServices;
  recordId: string;
  input: Input;
}

/** A domain action (server/domain/handlers.ts names each): it runs in the write's transaction; its preview changes nothing. */
export interface ActionHandler<Row = unknown, Input = Record<string, unknown>> {
  run(ctx: ActionContext<Row, Input>): Promise<ActionOutcome | void>;
  preview?(ctx: ActionContext<Row, Input>): Promise<Quote>;
  /** Runs before the transaction (a rate limit): throwing refuses the request. */
  before?(ctx: ActionGuardContext<Input>): Promise<void>;
  /** Runs after `run` failed and its transaction rolled back (counting failures toward a limit). */
  failed?(ctx: ActionGuardContext<Input>, error: unknown): Promise<void>;
}
