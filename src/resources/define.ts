import type { z } from "zod";
import type { FeatureToggleName } from "../config/featureFlags";

/**
 * The shape of a resource declaration: pure data plus zod schemas, no React and no side effects,
 * imported by the portal (menus, routes, pages, access) and by the backend (validation, access,
 * list queries, actions) alike.
 */
export const ROLES = ["subscriber", "agent", "admin"] as const;
export type Role = (typeof ROLES)[number];

/**
 * How much of the operator's data a role may touch through an action: all of it, the principal's
 * own records, or ("verified", staff) the records of subscribers who verified themselves to this
 * staff member as the caller within the last 30 minutes (issue 27; others answer 403
 * `/problems/caller-not-verified`). "verified" needs a source that knows each record's holder.
 */
export type Scope = "all" | "own" | "verified";

/**
 * "own" as the engine narrows it for one action of one resource (issue 28): the account holder's
 * records only ("own"), also every record of accounts the principal manages ("own+managers"), or
 * also, for members, the records of the lines assigned to them ("own+people"). Decided from the
 * declaration's `ownership.sharedWith` by `ownScope` (./access.ts); sources apply it in SQL.
 */
export type SourceScope = Scope | "own+managers" | "own+people";

/** Who else on an account reaches a resource's "own" records, by action: every action ("all") or those listed. */
export interface SharedWith {
  /** People the holder made managers of the account: its records. */
  manager?: "all" | readonly string[];
  /** People the holder made members: the records of the lines assigned to them (the source must know each record's line). */
  member?: "all" | readonly string[];
}

export const CRUD_ACTIONS = ["list", "show", "create", "edit", "delete"] as const;
export type CrudAction = (typeof CRUD_ACTIONS)[number];

/** Refine's filter operator names, as the list contract accepts them. */
export const FILTER_OPERATORS = [
  "eq",
  "ne",
  "lt",
  "gt",
  "lte",
  "gte",
  "in",
  "nin",
  "contains",
  "ncontains",
  "containss",
  "ncontainss",
  "startswith",
  "nstartswith",
  "endswith",
  "nendswith",
  "between",
  "nbetween",
  "null",
  "nnull",
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** The operators that match text (a value inside, at the start or at the end; a trailing "s": case-sensitive). */
export const TEXT_FILTER_OPERATORS: ReadonlySet<FilterOperator> = new Set(
  FILTER_OPERATORS.filter((operator) => /contains|startswith|endswith/.test(operator)),
);

export type FieldKind =
  | "text"
  | "longText"
  | "id"
  | "enum"
  | "money"
  | "msisdn"
  | "number"
  | "boolean"
  | "date"
  | "datetime"
  | "dataMb"
  | "quantity"
  | "tags"
  | "reference"
  /** A value shown once (a PIN, a PUK): large, monospaced, with a copy button. */
  | "secret"
  /** An eSIM activation code: shown as a QR code to scan, and as text. */
  | "qrCode"
  /** A list of {state, at, byRole, note} changes, drawn as a timeline. */
  | "timeline"
  /** A plan's rates past its allowance (src/resources/overage.ts): per type, per roaming zone, or capped. */
  | "overage"
  /** A US postal address (an action's input): the validated form, with maps autocomplete when configured. */
  | "address"
  /** Ids of files uploaded first (POST /files): a form picks and uploads them, a page lists them. */
  | "files"
  /** Catalog text in Spanish beside the default (src/resources/catalogTranslations.ts): the fields in `translates`. */
  | "translations"
  /** Text the system posted in English (a ledger reason): shown in the reader's language (src/i18n/postedText.ts). */
  | "posted"
  /**
   * One of a few `options` (an action's input), all shown at once as radio buttons under a legend: a
   * question whose answers are sentences, or one that decides what else the form asks. Starts at the first.
   */
  | "choice"
  /**
   * A number of the operator's inventory (an action's input): an area code, its free numbers to pick
   * from, and the picked one held for the person a few minutes (src/components/numbers/FreeNumberPicker.tsx).
   */
  | "freeNumber";

export interface FieldSpec {
  /** i18n key of the field label. */
  label: string;
  kind: FieldKind;
  /** For enums: the values. */
  options?: readonly string[];
  /**
   * For enums: the i18n prefix of the values' labels, `<labels>.<value>`. Default `enums.<field>`,
   * shared by every resource with a field of that name; give your own where the words must differ
   * (in Spanish a pass is "activo", a line "activa").
   */
  labels?: string;
  /**
   * A relation to a record of another resource, rendered as a link (and as a select in forms).
   * `idField` names the field holding its id when this field is a joined label (lines.planName);
   * without it, this field itself holds the id (kind "reference").
   */
  reference?: {
    resource: string;
    idField?: string;
    /**
     * In an action's input: offer only the referenced records whose field (key) equals the acted-on
     * record's field (value), e.g. `{ kind: "accountType" }` offers a line only plans of its own kind.
     */
    matching?: Record<string, string>;
    /** In an action's input: offer only the referenced records holding these values (`{ status: "active" }`). */
    where?: Record<string, string>;
  };
  /** Roles that may write this field; others get 403 naming it. Unset: whoever may create/edit. */
  writableBy?: readonly Role[];
  /** i18n key of a hint shown under the form input. */
  help?: string;
  /** Show only the last 4 characters (an ICCID on a phone screen). */
  masked?: boolean;
  /** In a form: shown only while the other fields hold these values (the ICCID of a physical SIM). */
  onlyWhen?: Conditions<string>;
  /**
   * For an enum of an action's input: values offered only while a Remote Config feature toggle is on
   * (`{ esim: "esim_transfer_enabled" }`). While it is off the form leaves the value out and the
   * server refuses it (422 naming the field); the action's other values work as before.
   */
  optionToggles?: Partial<Record<string, FeatureToggleName>>;
  /**
   * For a file field (a reference to "files", or kind "files"): the purpose its uploads are stored
   * under (POST /files?purpose=…). Default "attachment"; "id_document" for a photo or scan of an ID.
   */
  purpose?: "attachment" | "id_document";
  /** For kind "translations": which texts the record has in other languages (a plan: name and features). */
  translates?: readonly ("name" | "features")[];
  /**
   * In an action's input: a question of the form only, never sent (left out before the input is
   * checked as a whole and before the request), whose answer other fields' `onlyWhen` follow ("a new
   * number or bring mine"). The server's input knows nothing of it.
   */
  formOnly?: boolean;
  /**
   * For kind "freeNumber": the number whose area code the picker starts at: a field of the acted-on
   * record (`{ field: "msisdn" }`, the line's own), or of the first record of another resource that
   * matches it (`{ resource: "lines", matching: { accountId: "id" }, field: "msisdn" }`, one of the
   * account's lines). None found: the operator's first area code.
   */
  nearNumber?: { field: string; resource?: string; matching?: Record<string, string> };
}

/** Field values a condition compares with. */
export type Conditions<K extends string> = Partial<Record<K, readonly (string | number | boolean | null)[]>>;

/**
 * A named action on one record (`POST /{resource}/{id}/actions/{name}`). Either it sets fixed
 * fields (`set`, generic documents only) or a domain `handler` in server/domain/ does the work, in
 * the same transaction as its audit row, order, notifications and live events.
 */
export interface ActionSpec<K extends string = string> {
  /** i18n key of the button label. */
  label: string;
  /** The fields the action sets, to fixed values (documents only; domain tables use a handler). */
  set?: Partial<Record<K, string | number | boolean | null>>;
  /** Allowed only while each named field holds one of these values (else 409 naming the field). */
  when?: Conditions<K>;
  /**
   * Conditions in the expression language (src/resources/expressions), on the record, `role` (who
   * acts) and `today()`: each must hold, else 409 at its `field` with its `message`, and the button is
   * hidden. "A subscriber cancels only before the start": `role != 'subscriber' or startsOn > today()`.
   */
  allowedIf?: readonly DeclaredCheck<K>[];
  /**
   * What the action does besides `set`, in the write's transaction (charge or refund a balance through
   * the ledger, a notice). With effects that move money the action has a preview: the quote of them.
   */
  effects?: readonly DeclaredEffect<K>[];
  /** The name of the server function (server/domain/handlers.ts) that carries the action out. */
  handler?: string;
  /**
   * "module": the resource's domain module serves `POST …/actions/{name}` itself (one that must call
   * an outside service between two transactions, e.g. a card gateway); the declaration still gives
   * its access, `when`, reason, input form and button.
   */
  servedBy?: "module";
  /** What the action takes from the person, validated on both sides and rendered as a form. */
  input?: z.ZodObject;
  /** How each input field looks in the form (label, kind, options). */
  inputFields?: Record<string, FieldSpec>;
  /** `POST …/actions/{name}/preview` answers the same input with a quote and changes nothing; the portal shows it before the person confirms. */
  preview?: boolean;
  /**
   * These roles must have signed in within the last few minutes (the portal asks for the password or
   * SMS code again, then retries); with `when`, only while the record meets it (restoring a line
   * suspended as lost or stolen).
   */
  reauth?: { roles: readonly Role[]; when?: Conditions<K> };
  /**
   * What the action answers (a PIN, a PUK, an activation code): its schema and how each field looks.
   * `once`: the answer cannot be had again (a new PIN replaces it), so the portal says to write it down.
   */
  result?: { schema: z.ZodObject; fields: Record<string, FieldSpec>; once?: boolean };
  /** i18n key of one sentence saying what the action does, for the subscriber's "Manage" list. */
  about?: string;
  /**
   * The action may be filed for a second person instead of run (money above the caller's bound): it
   * then answers 202 with a record of this shape (an approval request), and nothing else changes.
   */
  accepted?: z.ZodObject;
  /** The caller must give a reason, kept in the audit trail: `true` for everyone, "staff" for agents and admins. */
  reason?: boolean | "staff";
  /** Red button. */
  danger?: boolean;
  /** i18n key of the confirmation that says what will happen; `{{title}}` is the record's title. */
  confirm?: string;
  /**
   * i18n key of the sentence shown once it is done, saying what changed: `{{field}}` is a field of
   * the answer as people read it (money formatted), `{{field.change}}` how much a money field moved
   * ("{{balance.change}} added. Your balance is {{balance}}."). Default: "<action>: done."
   */
  done?: string;
}

/**
 * A file the API serves for one record at `GET /{resource}/{id}/{path}` (a bill's PDF). It needs the
 * viewer's token, so the portal fetches it (never a plain link); the show page and each list row offer
 * it to whoever may see the record, and the module's route decides again.
 */
export interface DownloadSpec<K extends string = string> {
  /** The path under the record, e.g. "pdf". */
  path: string;
  /** i18n key of the button label. */
  label: string;
  /** The record field that names the file when the server gives no name, e.g. the bill number. */
  fileName: K;
  /** The file's extension, added to that name. */
  extension: string;
}

/** The views the generic pages render, each replaceable by a page of the portal's (src/pages/resourceViews.ts). */
export const VIEWS = ["list", "show", "create", "edit"] as const;
export type View = (typeof VIEWS)[number];

export interface SortSpec<K extends string> {
  field: K;
  order: "asc" | "desc";
}

interface BaseDefinition<S extends z.ZodObject, K extends string> {
  name: string;
  /** i18n keys: `resources.<name>.label`, etc. */
  label: string;
  /** Any icon name of @ant-design/icons (checked when the portal starts). */
  icon: string;
  /** The record as the API returns it: the shape of a stored record, checked on every response. */
  schema: S;
  /**
   * Rules that hold only when a value is written ("not in the future"): per field, the schema create
   * and edit check instead of the record's. Never checked on reads, so a record stays readable after
   * the day passes. Each must accept only values the record's schema accepts.
   */
  writeRules?: Partial<Record<K, z.ZodType>>;
  recordTitle: K;
  /** A field told beside the title where records are picked from a list, so two alike ("Alex Rivera" twice) can be told apart ("· Prepaid"). */
  recordSubtitle?: K;
  /** The create page's title as a task ("Ask for help"), an i18n key; default "New · <label>". */
  createLabel?: string;
  fields: Partial<Record<K, FieldSpec>>;
  list: {
    columns: readonly K[];
    defaultSort: readonly SortSpec<K>[];
    sortable: readonly K[];
    filters: Partial<Record<K, readonly FilterOperator[]>>;
    /** The `q` parameter: an i18n key for its placeholder and the text fields it matches (a domain module may search its own way). */
    search?: { placeholder: string; fields?: readonly K[] };
  };
  show: readonly K[];
  /** Named actions on one record; who may run each is in `access` under the same name. */
  actions?: Record<string, ActionSpec<K>>;
  /** Which role may do what, and over which records. Missing role = not allowed. */
  access: Partial<Record<CrudAction | (string & {}), Partial<Record<Role, Scope>>>>;
  /**
   * How a subscriber's own records are found. `path` documents it; for documents, `through` names
   * the reference field whose record's owner owns this one (a claim is owned by whoever owns its
   * line); without it, the subscriber who created the record owns it.
   */
  ownership?: {
    path: string;
    through?: K;
    /**
     * Who besides the account's holder reaches these records, and through which actions (issue 28):
     * managers and members of the account (src/resources/accountMembers.ts). Absent: the holder
     * only, so a new resource shares nothing until it says so (payment methods never do).
     */
    sharedWith?: SharedWith;
  };
  source: "backend" | "rtdb";
  /**
   * For `source: "rtdb"`, where records live. Default: `/<name>/<ownerUid>/<id>`, a subscriber's own
   * records. `groupBy`: `/<name>/<operator>/<value of that field>/<uid>`, one record per signed-in
   * person and value (who is viewing what: presence); whoever may `list` reads a whole group of their
   * operator, whoever may `create`/`delete` writes their own record in it ("own") or any ("all").
   */
  rtdb?: { groupBy: K };
  /** Every write (create, edit, delete, action) leaves an audit row: who, role, before, after, reason. */
  audit: boolean;
  /** Labels in every language, merged into the portal's dictionaries: no file outside the declaration. */
  messages?: { en: Record<string, string>; es: Record<string, string> };
  /** Files of one record the module serves (a bill's PDF), offered on the show page and in list rows. */
  downloads?: readonly DownloadSpec<K>[];
  /** In the staff side menu (default true); an inbox reached from the header, say, is not. */
  menu?: boolean;
  /**
   * Where a subscriber finds this resource: one of the five destinations of the subscriber app
   * (listed there under "More"), or "task" (default): only inside the task that needs it (a bill's
   * Pay opens payment methods). Subscribers never get the staff menu of every resource.
   */
  subscriberPlace?: SubscriberPlace;
  /**
   * Offered under its place only to a subscriber who holds an account of this kind (bills: postpaid),
   * so a prepaid-only person is not sent to a list that is always empty for them. Without it: to all.
   */
  subscriberAccountType?: "prepaid" | "postpaid";
  /**
   * How one record reads to a subscriber in a list on a phone: sentences of their language instead of
   * field labels beside values. Each text is an i18n key (of `messages`) filled with the record's
   * fields as the portal shows them ("{{brand}} ending in {{last4}}"), shown when the record meets its
   * `when`. Without it a subscriber's list shows a field per row, as staff's does.
   */
  subscriberCard?: SubscriberCard<K>;
}

/** A sentence of a subscriber's card: an i18n key, or one that holds only for records meeting `when`. */
export type CardText<K extends string> = string | { text: string; when: Conditions<K> };

/** A record as a subscriber's card: its title (the first text that holds), its lines (every one that holds), its buttons. */
export interface SubscriberCard<K extends string> {
  title: readonly CardText<K>[];
  lines?: readonly CardText<K>[];
  /** Declared actions offered as buttons on the card (each when the viewer may run it and the record allows it). */
  actions?: readonly string[];
  /** Offer "Remove" (the resource's delete), with a confirmation naming the record by its title. */
  remove?: boolean;
}

/** The texts of a card that hold for the record (`when` met), as i18n keys. */
export function cardTexts<K extends string>(
  texts: readonly CardText<K>[] | undefined,
  record: Record<string, unknown>,
): string[] {
  return (texts ?? []).flatMap((text) =>
    typeof text === "string" ? [text] : meets(text.when, record) ? [text.text] : [],
  );
}

/** The subscriber app's five destinations (src/components/layout/destinations.ts draws them). */
export const DESTINATIONS = ["home", "usage", "money", "shop", "account"] as const;
export type Destination = (typeof DESTINATIONS)[number];
export type SubscriberPlace = Destination | "task";

/** Records kept as documents by the generic store (one table, fields in jsonb): everything comes from the declaration. */
export interface DocumentResource<S extends z.ZodObject, K extends string> extends BaseDefinition<S, K> {
  store?: "documents";
  /** The fields of the create and edit forms, in order; server-set fields (id, times, status) stay out. */
  form?: { create: readonly K[]; edit: readonly K[] };
  /**
   * Values a new record starts with: fields the form does not ask for, or a form field's first value.
   * An expression (`expr("today()")`) is worked out when the form opens and when the record is made.
   */
  defaults?: Partial<Record<K, string | number | boolean | null | Expression>>;
  /** Fields that get a database index (those filtered or sorted on most). */
  indexes?: readonly K[];
  /**
   * Fields the server computes from others: `{ op, of }` (one operation on two numbers) or an
   * expression (`expr("startsOn + days - 1")`), computed in SQL on every read, so lists filter and
   * sort on it; `stored: true` works it out once when the record is made and keeps it (a price read
   * from a rate table at purchase stays what was paid when the rate changes).
   */
  computed?: Partial<Record<K, ComputedField<K> | ExpressionField>>;
  /** Rules across fields, checked on create and edit in the browser and on the server: 400 at `field`. */
  checks?: readonly DeclaredCheck<K>[];
  /**
   * This resource is a rate table other declarations look up (`rate('travel-insurance-rates', zone)`):
   * the record whose `key` matches and whose `from` day is the latest on or before the day asked, its
   * `value` (money or number). Admins edit it like any resource; its audit trail is its history.
   */
  rateTable?: { key: K; value: K; from: K };
  /** What making a record does besides storing it, in its transaction; quoted first at `POST /{name}/preview`. */
  onCreate?: readonly DeclaredEffect<K>[];
  /**
   * Changes the daily job makes when their condition becomes true (`expire`: `status == 'active' and
   * endsOn < today()` sets status to expired), in SQL over every matching record, audited as the system.
   */
  schedules?: Record<string, DeclaredSchedule<K>>;
  /** Each operator's first records, written once when the resource has none of theirs (a rate table's rates). */
  seed?: readonly Record<string, unknown>[];
}

/** A source text of the expression language (src/resources/expressions), as a declaration writes it. */
export interface Expression {
  expression: string;
}
/** `expr("startsOn + days - 1")`: marks a declaration's value as an expression rather than a fixed text. */
export const expr = (expression: string): Expression => ({ expression });

/** A computed field given by an expression; `stored` keeps the value worked out when the record was made. */
export interface ExpressionField extends Expression {
  stored?: boolean;
}

/** A rule that must hold (an expression giving yes or no), else a refusal at `field` worded by `message` (i18n key). */
export interface DeclaredCheck<K extends string = string> {
  rule: string;
  field: K;
  message: string;
}

/**
 * A declared side effect of a create or an action, run in the write's transaction:
 * - `charge`: takes `amount` (a money expression) from the balance of the account the reference field
 *   `account` leads to (a line's or an account's id): prepaid from its balance (422 with the shortfall
 *   when short), postpaid as an unbilled charge. `label` (i18n key) names it in the quote and the ledger.
 * - `refund`: gives `amount` back to that balance (nothing when it comes to zero).
 * - `notify`: an in-app notice to the record's owner, worded by `message` (an i18n key of the declaration).
 */
export type DeclaredEffect<K extends string = string> =
  | { charge: { account: K; amount: string; label: string } }
  | { refund: { account: K; amount: string; label: string } }
  | { notify: { message: string } };

/** A change the daily job makes to every record meeting `when` (an expression): the fields in `set`. */
export interface DeclaredSchedule<K extends string = string> {
  when: string;
  set: Partial<Record<K, string | number | boolean | null>>;
  /** i18n key of the notice the record's owner gets, if any. */
  notify?: string;
}

/**
 * Records in tables of their own, served by a domain module (server/domain/<name>/module.ts) that
 * supplies the query and the handlers. Keys only the document store can honour are not allowed.
 */
export interface TableResource<S extends z.ZodObject, K extends string> extends BaseDefinition<S, K> {
  store: "table";
  /** Create and edit forms, served by the module's create/edit (start-up refuses one without them). */
  form?: { create: readonly K[]; edit: readonly K[] };
  defaults?: never;
  indexes?: never;
  computed?: never;
  checks?: never;
  rateTable?: never;
  onCreate?: never;
  schedules?: never;
  seed?: never;
}

/** A number the server computes from numeric fields of the same record: `multiply` or `add` them. */
export interface ComputedField<K extends string> {
  op: "multiply" | "add" | "subtract";
  of: readonly [K, K];
}

export type ResourceDefinition<
  S extends z.ZodObject = z.ZodObject,
  K extends string = Extract<keyof z.output<S>, string>,
> = DocumentResource<S, K> | TableResource<S, K>;

/**
 * Keeps the literal types of a declaration, and where it was written (`src/resources/x.ts:12`, when
 * the runtime's stack tells: the server and tests run the sources), so a refused expression names its file.
 */
export function defineResource<S extends z.ZodObject>(definition: ResourceDefinition<S>): ResourceDefinition<S> {
  // The caller's frame: the line after this function's own in the stack.
  const caller = new Error().stack?.split("\n")[2] ?? "";
  const declaredIn = /((?:src|tests|server)\/[\w/.-]+\.tsx?:\d+)/.exec(caller)?.[1];
  if (declaredIn) Object.defineProperty(definition, "declaredIn", { value: declaredIn, enumerable: false });
  return definition;
}

/** Whether the record meets every condition (the server checks the same before an action). */
export function meets(conditions: Conditions<string> | undefined, record: Record<string, unknown>): boolean {
  return Object.entries(conditions ?? {}).every(([field, values]) =>
    (values as readonly unknown[]).includes(record[field] as never),
  );
}

/**
 * Any declared resource, as the engine and the generic pages handle it: generic over whatever its
 * schema holds, so record fields are plain strings and values `unknown` until the schema parses them.
 */
export type DeclaredResource = ResourceDefinition<z.ZodObject, string>;
