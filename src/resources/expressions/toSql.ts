import { refuse, type CompiledExpression, type ExprType, type Node } from "./types";
import { dayNumber, minorDigits } from "./values";

/** What SQL text needs inline: the day, who acts, and (for money(...)) the operator's currency. */
export interface SqlScope {
  today: string;
  role?: string | null;
  /** The operator's currency: money(2.50) needs its minor digits (required only when the expression uses money()). */
  currency?: string;
}

/**
 * The expression as PostgreSQL text (16 and PGlite), for lists that filter and sort on it and for
 * the daily job's schedules; it gives what evaluateExpression gives. Numbers compute as float8 (as
 * JavaScript's doubles do), money as its amount in minor units, dates as date; the result is a
 * money's amount (bigint), a date's 'YYYY-MM-DD' text, and a boolean is never null.
 * `fieldSql(field)` is the stored field as the generic store reads it (numbers numeric, money its
 * bigint amount, booleans boolean, the rest text). A rate is read at write time only: rate() throws.
 */
export function expressionToSql(
  compiled: CompiledExpression,
  fieldSql: (field: string) => string,
  scope: SqlScope,
): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(scope.today) || dayNumber(scope.today) === null)
    throw new Error(`today must be a YYYY-MM-DD day, not '${scope.today}'`);
  const body = toSql(compiled.root, { compiled, fieldSql, scope });
  switch (compiled.type) {
    case "boolean":
      return `COALESCE(${body}, false)`;
    case "date":
      return `to_char(${body}, 'YYYY-MM-DD')`;
    case "money":
      return `(${body})::bigint`;
    default:
      return body;
  }
}

interface Context {
  compiled: CompiledExpression;
  fieldSql: (field: string) => string;
  scope: SqlScope;
}

/** How a value of each type computes inside the SQL. */
const SQL_TYPE: Record<ExprType, string> = {
  number: "float8",
  money: "bigint",
  date: "date",
  string: "text",
  boolean: "boolean",
};

/** A text literal: E'' with backslashes and quotes doubled, safe whatever standard_conforming_strings says. */
const text = (value: string) => `E'${value.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;

/** A number literal, checked to be plain digits so nothing else can ride in on it. */
function number(value: number): string {
  const written = String(value);
  if (!/^-?\d+(\.\d+)?(e[+-]\d+)?$/.test(written)) throw new Error(`not a number literal: ${written}`);
  return `(${written}::float8)`;
}

/** round((x)::numeric) half away from zero, as evaluate's roundHalfAway. */
const rounded = (x: string) => `round((${x})::numeric)`;

function toSql(node: Node, context: Context): string {
  const sql = (child: Node) => toSql(child, context);
  switch (node.kind) {
    case "literal":
      if (node.type === "number") return number(node.value as number);
      if (node.type === "string") return `${text(node.value as string)}::text`;
      return node.value ? "true" : "false";
    case "null":
      return `NULL::${SQL_TYPE[node.type]}`;
    case "field": {
      const stored = context.fieldSql(node.name);
      return node.type === "number" || node.type === "date" ? `(${stored})::${SQL_TYPE[node.type]}` : `(${stored})`;
    }
    case "role":
      return context.scope.role == null ? "NULL::text" : `${text(context.scope.role)}::text`;
    case "today":
      return `'${context.scope.today}'::date`;
    case "money": {
      const currency = context.scope.currency;
      if (!currency) throw new Error("money(...) in SQL needs the operator's currency (SqlScope.currency)");
      return rounded(`${sql(node.of)} * ${10 ** minorDigits(currency)}`);
    }
    case "negate":
      return `(-${sql(node.of)})`;
    case "arithmetic":
      return arithmetic(node, sql(node.left), sql(node.right));
    case "compare": {
      const [left, right] = [sql(node.left), sql(node.right)];
      if (node.op === "==") return `(${left} IS NOT DISTINCT FROM ${right})`;
      if (node.op === "!=") return `(${left} IS DISTINCT FROM ${right})`;
      // Texts order by code point ("C"), as evaluate does; an ordering with a null is false, not null.
      const collate = node.left.type === "string" ? ` COLLATE "C"` : "";
      return `COALESCE(${left}${collate} ${node.op} ${right}, false)`;
    }
    case "isNull":
      return `(${sql(node.of)} IS ${node.negated ? "NOT " : ""}NULL)`;
    case "logic":
      return `(${sql(node.left)} ${node.op.toUpperCase()} ${sql(node.right)})`;
    case "not":
      return `(NOT ${sql(node.of)})`;
    case "if":
      return `(CASE WHEN ${sql(node.test)} THEN ${sql(node.then)} ELSE ${sql(node.else)} END)`;
    case "minMax": {
      // LEAST/GREATEST skip nulls; the language gives null, as arithmetic does.
      const [left, right] = [sql(node.left), sql(node.right)];
      const pick = node.fn === "min" ? "LEAST" : "GREATEST";
      return `(CASE WHEN ${left} IS NULL OR ${right} IS NULL THEN NULL ELSE ${pick}(${left}, ${right}) END)`;
    }
    case "round":
      return `(${rounded(sql(node.of))})::float8`;
    case "rate":
      return refuse("rate() is read when a record is written, not in a list's SQL", context.compiled.source, node.at);
  }
}

function arithmetic(node: Extract<Node, { kind: "arithmetic" }>, left: string, right: string): string {
  const pair = `${node.left.type} ${node.right.type}`;
  const op = node.op;
  switch (pair) {
    case "number number":
      // Division by zero fails in PostgreSQL; the language gives null.
      return op === "/" ? `(${left} / NULLIF(${right}, 0))` : `(${left} ${op} ${right})`;
    case "money money":
      return `(${left} ${op} ${right})`;
    case "money number":
      return rounded(`(${left})::float8 ${op} ${op === "/" ? `NULLIF(${right}, 0)` : right}`);
    case "number money":
      return rounded(`${left} * (${right})::float8`);
    case "date number":
      return `(${left} ${op} (${rounded(right)})::int)`;
    case "number date":
      return `(${right} + (${rounded(left)})::int)`;
    default:
      return `((${left} - ${right})::float8)`;
  }
}
