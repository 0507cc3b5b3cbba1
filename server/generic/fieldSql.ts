import { sql, type SQL } from "drizzle-orm";
import type { DeclaredResource } from "../lib/declaredResource";
import { declaredExpressions, todayUtc } from "#resources/expressions/declaration";
import { expressionToSql } from "#resources/expressions/index";

/** Resource and field names become SQL text (index names, partial-index predicates): only these shapes pass. */
export const RESOURCE_NAME = /^[a-z][a-z0-9-]{1,40}$/;
export const FIELD_NAME = /^[a-zA-Z][a-zA-Z0-9]{0,40}$/;

const OPERATORS = { multiply: "*", add: "+", subtract: "-" } as const;

/** Fields every generic record has as real columns rather than inside `data`. */
const COLUMNS: Record<string, string> = { id: "id", createdAt: "created_at", updatedAt: "updated_at" };

/**
 * The SQL text of one declared field of a generic record: a real column, or the value inside `data`
 * cast to what its kind compares as (numbers as numeric, money by its amount). Used alike by list
 * filters, sorts and the declared indexes, so an index always matches the expression a query uses.
 */
export function fieldExpression(resource: DeclaredResource, field: string): string {
  if (!FIELD_NAME.test(field)) throw new Error(`${resource.name}: '${field}' is not a valid field name`);
  const column = COLUMNS[field];
  if (column) return `"${column}"`;
  const computed = resource.store === "table" ? undefined : resource.computed?.[field];
  if (computed && "op" in computed) {
    const [a, b] = computed.of.map((operand: string) => fieldExpression(resource, operand));
    return `(${a} ${OPERATORS[computed.op]} ${b})`;
  }
  if (computed && !computed.stored) {
    // An expression computed on every read: the same language the browser evaluates, written as SQL
    // (it reads neither today() nor rates, so its text is fixed at start-up; declaration.ts checks that).
    const compiled = declaredExpressions(resource).computed.find((c) => c.field === field)!.compiled;
    return `(${expressionToSql(compiled, (operand) => fieldExpression(resource, operand), { today: todayUtc() })})`;
  }
  switch (resource.fields[field]?.kind) {
    case "number":
    case "quantity":
    case "dataMb":
      return `((data->>'${field}')::numeric)`;
    case "money":
      return `((data->'${field}'->>'amount')::bigint)`;
    case "boolean":
      return `((data->>'${field}')::boolean)`;
    default:
      // Text, enums, ids, dates (YYYY-MM-DD sorts as text) and ISO times written by the server (UTC, same length).
      return `(data->>'${field}')`;
  }
}

/** The SQL behind each field a list may filter or sort by, for listSql's ColumnMap. */
export function documentColumns(resource: DeclaredResource): Record<string, SQL> {
  const fields = new Set<string>([...Object.keys(resource.list.filters), ...resource.list.sortable]);
  return Object.fromEntries([...fields].map((field) => [field, sql.raw(fieldExpression(resource, field))]));
}

/** Name of the index the declaration asks for on one field. */
export const indexName = (resource: string, field: string) =>
  `resource_documents_${resource.replaceAll("-", "_")}_${field.toLowerCase()}_idx`;

/** CREATE INDEX for one declared field: partial on the resource, led by the operator every query narrows to. */
export function indexStatement(resource: DeclaredResource, field: string): string {
  if (!RESOURCE_NAME.test(resource.name)) throw new Error(`'${resource.name}' is not a valid resource name`);
  return `CREATE INDEX IF NOT EXISTS ${indexName(resource.name, field)} ON resource_documents (operator_code, ${fieldExpression(resource, field)}) WHERE resource = '${resource.name}'`;
}

/**
 * CREATE INDEX for free-text search on one field (`list.search.fields`): a trigram index, which
 * serves the ILIKE '%text%' the search runs, partial on the resource.
 */
export function searchIndexStatement(resource: DeclaredResource, field: string): string {
  if (!RESOURCE_NAME.test(resource.name)) throw new Error(`'${resource.name}' is not a valid resource name`);
  const name = `resource_documents_${resource.name.replaceAll("-", "_")}_${field.toLowerCase()}_trgm_idx`;
  return `CREATE INDEX IF NOT EXISTS ${name} ON resource_documents USING gin (${fieldExpression(resource, field)} gin_trgm_ops) WHERE resource = '${resource.name}'`;
}

/**
 * The value a computed field shows: its number, or for a money field the amount with the currency of
 * its money operand ({amount, currency}), so it renders and exports like any stored money.
 */
export function computedDisplay(resource: DeclaredResource, field: string): string {
  const computed = resource.store === "table" ? undefined : resource.computed?.[field];
  if (!computed) throw new Error(`${resource.name}: '${field}' is not a computed field`);
  const number = fieldExpression(resource, field);
  if (resource.fields[field]?.kind !== "money") return number;
  // A money expression's amount is in the operator's currency (money(…) literals and rates are).
  if (!("op" in computed))
    return `jsonb_build_object('amount', ${number}, 'currency', (SELECT currency FROM operators WHERE operators.code = resource_documents.operator_code))`;
  const moneyOperand = computed.of.find((operand: string) => resource.fields[operand]?.kind === "money");
  if (!moneyOperand)
    throw new Error(`${resource.name}: the money field '${field}' must be computed from a money field`);
  return `jsonb_build_object('amount', ${number}, 'currency', data->'${moneyOperand}'->>'currency')`;
}
