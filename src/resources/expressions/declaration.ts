import type { ActionSpec, DeclaredCheck, DeclaredEffect, DeclaredResource, FieldKind, Role } from "../define";
import { resources } from "../index";
import {
  compileExpression,
  evaluateExpression,
  ExpressionError,
  type CompiledExpression,
  type ExprEnv,
  type ExprType,
} from "./index";

/**
 * Every expression of one declaration, type-checked against its fields once and kept: computed
 * fields, defaults, checks, actions' `allowedIf`, effects' amounts and schedules. The browser and the
 * server call the same functions below, so a rule reads the same on both sides.
 */
export interface DeclaredExpressions {
  computed: { field: string; compiled: CompiledExpression; stored: boolean }[];
  defaults: Record<string, CompiledExpression>;
  checks: { check: DeclaredCheck; compiled: CompiledExpression }[];
  allowedIf: Record<string, { check: DeclaredCheck; compiled: CompiledExpression }[]>;
  effects: { onCreate: CompiledEffect[]; actions: Record<string, CompiledEffect[]> };
  schedules: { name: string; compiled: CompiledExpression; set: Record<string, unknown>; notify?: string }[];
}

/** A declared effect with its amount (money) compiled. */
export type CompiledEffect =
  | { kind: "charge" | "refund"; account: string; amount: CompiledExpression; label: string }
  | { kind: "notify"; message: string };

/** Who acts, which day it is and the operator's currency: all an expression may read besides the record. */
export interface ExpressionContext {
  role: Role | "system" | null;
  /** YYYY-MM-DD, UTC (the day both sides agree on). */
  today: string;
  currency: string;
  /** A rate table's value in force on a day (the server's; the browser has none and shows no stored price). */
  rate?: (table: string, key: string | number | boolean, asOf: string) => unknown;
}

export const todayUtc = (): string => new Date().toISOString().slice(0, 10);

/** The type an expression sees for a field of this kind; kinds an expression cannot read are left out. */
const TYPE_OF_KIND: Partial<Record<FieldKind, ExprType>> = {
  number: "number",
  quantity: "number",
  dataMb: "number",
  money: "money",
  date: "date",
  boolean: "boolean",
  text: "string",
  longText: "string",
  enum: "string",
  id: "string",
  reference: "string",
  msisdn: "string",
  datetime: "string",
};

export const exprTypeOfKind = (kind: FieldKind | undefined): ExprType | undefined =>
  kind ? TYPE_OF_KIND[kind] : undefined;

/** What expressions of this declaration may read: its fields and every declared rate table. */
export function envOf(resource: DeclaredResource): ExprEnv {
  const fields: Record<string, ExprType> = { id: "string", createdAt: "string", updatedAt: "string" };
  for (const [field, spec] of Object.entries(resource.fields)) {
    const type = exprTypeOfKind(spec?.kind);
    if (type) fields[field] = type;
  }
  const rateTables: Record<string, ExprType> = {};
  for (const table of resources as readonly DeclaredResource[]) {
    if (table.store === "table" || !table.rateTable) continue;
    const type = exprTypeOfKind(table.fields[table.rateTable.value]?.kind);
    if (type) rateTables[table.name] = type;
  }
  return { fields, rateTables };
}

/** Where a declaration was written (src/resources/x.ts:12), when the runtime can tell; else its name. */
const placeOf = (resource: DeclaredResource) =>
  (resource as { declaredIn?: string }).declaredIn ?? `the declaration '${resource.name}'`;

/** Compiles one expression of a declaration, or refuses the declaration with its file, key and position. */
function compileAt(
  resource: DeclaredResource,
  where: string,
  source: string,
  env: ExprEnv,
  want?: { type?: ExprType; sql?: boolean; fixed?: boolean },
): CompiledExpression {
  const refuse = (message: string) =>
    new Error(`${placeOf(resource)}: ${resource.name} ${where} "${source}": ${message}`);
  let compiled: CompiledExpression;
  try {
    compiled = compileExpression(source, env);
  } catch (error) {
    if (error instanceof ExpressionError) throw refuse(error.message);
    throw error;
  }
  if (want?.type && compiled.type !== want.type)
    throw refuse(`gives ${compiled.type} where ${want.type} is needed at 0`);
  if (want?.sql && compiled.usesRate)
    throw refuse(`rate() is read when a record is written, so it needs a stored field at 0`);
  // A field computed on every read is part of the list's SQL, written once: it cannot change by day or reader.
  if (want?.fixed && (compiled.usesToday || compiled.usesRole))
    throw refuse(`a field computed on every read cannot use today() or role; make it stored at 0`);
  return compiled;
}

function compileEffects(
  resource: DeclaredResource,
  where: string,
  effects: readonly DeclaredEffect[] | undefined,
  env: ExprEnv,
): CompiledEffect[] {
  return (effects ?? []).map((effect, index) => {
    if ("notify" in effect) return { kind: "notify", message: effect.notify.message };
    const [kind, spec] =
      "charge" in effect ? (["charge", effect.charge] as const) : (["refund", effect.refund] as const);
    const target = resource.fields[spec.account];
    const to = target?.reference?.resource;
    if (target?.kind !== "reference" || (to !== "lines" && to !== "accounts"))
      throw new Error(
        `${placeOf(resource)}: ${resource.name} ${where}[${index}].${kind}.account '${spec.account}' must be a reference to lines or accounts`,
      );
    return {
      kind,
      account: spec.account,
      label: spec.label,
      amount: compileAt(resource, `${where}[${index}].${kind}.amount`, spec.amount, env, { type: "money" }),
    };
  });
}

const compiledOf = new WeakMap<DeclaredResource, DeclaredExpressions>();

/** The declaration's expressions, compiled and checked once (the server calls it at start-up, so a mistake stops it). */
export function declaredExpressions(resource: DeclaredResource): DeclaredExpressions {
  const known = compiledOf.get(resource);
  if (known) return known;
  const env = envOf(resource);
  const documents = resource.store === "table" ? undefined : resource;
  const computed = Object.entries(documents?.computed ?? {}).flatMap(([field, rule]) => {
    if (!rule || !("expression" in rule)) return [];
    const type = exprTypeOfKind(resource.fields[field]?.kind);
    if (!type)
      throw new Error(
        `${placeOf(resource)}: ${resource.name} computed.${field} needs a field kind an expression gives`,
      );
    const stored = rule.stored === true;
    return [
      {
        field,
        stored,
        compiled: compileAt(resource, `computed.${field}`, rule.expression, env, {
          type,
          sql: !stored,
          fixed: !stored,
        }),
      },
    ];
  });
  const defaults = Object.fromEntries(
    Object.entries(documents?.defaults ?? {}).flatMap(([field, value]) =>
      value !== null && typeof value === "object" && "expression" in value
        ? [
            [
              field,
              compileAt(resource, `defaults.${field}`, value.expression, env, {
                type: exprTypeOfKind(resource.fields[field]?.kind),
              }),
            ],
          ]
        : [],
    ),
  );
  const checks = (documents?.checks ?? []).map((check, index) => {
    if (!resource.schema.shape[check.field])
      throw new Error(`${placeOf(resource)}: ${resource.name} checks[${index}].field '${check.field}' is not a field`);
    return { check, compiled: compileAt(resource, `checks[${index}]`, check.rule, env, { type: "boolean" }) };
  });
  const actions = Object.entries<ActionSpec>(resource.actions ?? {});
  const allowedIf = Object.fromEntries(
    actions.map(([name, action]) => [
      name,
      (action.allowedIf ?? []).map((check, index) => ({
        check,
        compiled: compileAt(resource, `actions.${name}.allowedIf[${index}]`, check.rule, env, { type: "boolean" }),
      })),
    ]),
  );
  const declared: DeclaredExpressions = {
    computed,
    defaults,
    checks,
    allowedIf,
    effects: {
      onCreate: compileEffects(resource, "onCreate", documents?.onCreate, env),
      actions: Object.fromEntries(
        actions.map(([name, action]) => [
          name,
          compileEffects(resource, `actions.${name}.effects`, action.effects, env),
        ]),
      ),
    },
    schedules: Object.entries(documents?.schedules ?? {}).map(([name, schedule]) => ({
      name,
      compiled: compileAt(resource, `schedules.${name}.when`, schedule.when, env, { type: "boolean", sql: true }),
      set: schedule.set,
      notify: schedule.notify,
    })),
  };
  compiledOf.set(resource, declared);
  return declared;
}

const scopeOf = (record: Record<string, unknown>, ctx: ExpressionContext) => ({
  record,
  today: ctx.today,
  role: ctx.role,
  currency: ctx.currency,
  rate: ctx.rate,
});

/** Defaults of a new record: fixed values and expressions worked out now. */
export function initialValues(resource: DeclaredResource, ctx: ExpressionContext): Record<string, unknown> {
  if (resource.store === "table") return {};
  const compiled = declaredExpressions(resource).defaults;
  return Object.fromEntries(
    Object.entries(resource.defaults ?? {}).map(([field, value]) => [
      field,
      compiled[field] ? evaluateExpression(compiled[field], scopeOf({}, ctx)) : value,
    ]),
  );
}

/**
 * Computed fields worked out from the values so far: those the database computes on reads (`stored`
 * false: the browser shows them as the person types), or with `stored` the ones kept at creation.
 */
export function computedValues(
  resource: DeclaredResource,
  record: Record<string, unknown>,
  ctx: ExpressionContext,
  which: "read" | "stored" = "read",
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const { field, compiled, stored } of declaredExpressions(resource).computed) {
    if (stored !== (which === "stored")) continue;
    values[field] = evaluateExpression(compiled, scopeOf({ ...record, ...values }, ctx));
  }
  return values;
}

const failing = (
  rules: { check: DeclaredCheck; compiled: CompiledExpression }[],
  record: Record<string, unknown>,
  ctx: ExpressionContext,
) =>
  rules
    .filter(({ compiled }) => evaluateExpression(compiled, scopeOf(record, ctx)) !== true)
    .map(({ check }) => ({ field: check.field, message: check.message }));

/** The declared checks these values fail, each at its field with its message key. */
export function failedChecks(resource: DeclaredResource, record: Record<string, unknown>, ctx: ExpressionContext) {
  return failing(declaredExpressions(resource).checks, record, ctx);
}

/** The action's `allowedIf` rules this record fails for this person. */
export function failedAllowedIf(
  resource: DeclaredResource,
  action: string,
  record: Record<string, unknown>,
  ctx: ExpressionContext,
) {
  return failing(declaredExpressions(resource).allowedIf[action] ?? [], record, ctx);
}

/** Whether making a record moves money, so the create form quotes it first (`POST /{name}/preview`). */
export const quotesOnCreate = (resource: DeclaredResource): boolean =>
  declaredExpressions(resource).effects.onCreate.some((effect) => effect.kind !== "notify");

/** Whether the action moves money, so it has a declared preview (the quote of its effects). */
export const quotesAction = (resource: DeclaredResource, action: string): boolean =>
  (declaredExpressions(resource).effects.actions[action] ?? []).some((effect) => effect.kind !== "notify");

/** The label keys of a declaration's charges and refunds: the forms its ledger reasons are posted in. */
export function postedLabelKeys(resource: DeclaredResource): string[] {
  const documents = resource.store === "table" ? undefined : resource;
  const effects = [
    ...(documents?.onCreate ?? []),
    ...Object.values(resource.actions ?? {}).flatMap((a) => a.effects ?? []),
  ];
  return effects.flatMap((effect) =>
    "charge" in effect ? [effect.charge.label] : "refund" in effect ? [effect.refund.label] : [],
  );
}
