import type { CompiledExpression, Node } from "./types";
import {
  compareValues,
  dayNumber,
  dayText,
  minorDigits,
  readValue,
  roundHalfAway,
  type Money,
  type Value,
} from "./values";

/** What an evaluation reads besides the expression: the record, the day, who acts, the rates. */
export interface EvalScope {
  /** Field values as the API carries them: numbers, money {amount, currency}, dates "YYYY-MM-DD", strings, booleans, null. */
  record: Record<string, unknown>;
  /** "YYYY-MM-DD": the caller decides (UTC today). */
  today: string;
  /** Who acts: "subscriber" | "agent" | "admin" | "system". */
  role?: string | null;
  /** The operator's currency, for money(...) literals. */
  currency: string;
  /** The rate table's value in force on asOf, or null. */
  rate?: (table: string, key: string | number | boolean, asOf: string) => unknown;
}

/**
 * The value of a compiled expression: number | {amount, currency} | "YYYY-MM-DD" | string | boolean
 * | null. Nulls propagate through arithmetic; an ordering with a null is false; a boolean result is
 * never null (false), as SQL's WHERE treats it. expressionToSql gives the same answers.
 */
export function evaluateExpression(compiled: CompiledExpression, scope: EvalScope): unknown {
  if (dayNumber(scope.today) === null || scope.today.length !== 10)
    throw new Error(`today must be a YYYY-MM-DD day, not '${scope.today}'`);
  const value = evaluate(compiled.root, scope);
  return compiled.type === "boolean" ? value === true : value;
}

function evaluate(node: Node, scope: EvalScope): Value {
  const of = (child: Node) => evaluate(child, scope);
  switch (node.kind) {
    case "literal":
      return node.value;
    case "null":
      return null;
    case "field":
      return readValue(scope.record[node.name], node.type, scope.currency);
    case "role":
      return scope.role ?? null;
    case "today":
      return scope.today;
    case "money": {
      const major = of(node.of) as number | null;
      if (major === null) return null;
      return { amount: roundHalfAway(major * 10 ** minorDigits(scope.currency)), currency: scope.currency };
    }
    case "negate": {
      const value = of(node.of);
      if (value === null) return null;
      return node.type === "money" ? { ...(value as Money), amount: 0 - (value as Money).amount } : -(value as number);
    }
    case "arithmetic":
      return arithmetic(node, of(node.left), of(node.right));
    case "compare": {
      const left = of(node.left);
      const right = of(node.right);
      const type = node.left.type;
      if (node.op === "==" || node.op === "!=") {
        // == is IS NOT DISTINCT FROM: two nulls are equal, a null and a value are not.
        const equal = left === null || right === null ? left === right : compareValues(left, right, type) === 0;
        return node.op === "==" ? equal : !equal;
      }
      if (left === null || right === null) return false;
      const order = compareValues(left, right, type);
      return { "<": order < 0, "<=": order <= 0, ">": order > 0, ">=": order >= 0 }[node.op];
    }
    case "isNull":
      return (of(node.of) === null) !== node.negated;
    case "logic": {
      // Three-valued, as SQL: false wins an `and`, true wins an `or`, otherwise null stays null.
      const left = of(node.left);
      const right = of(node.right);
      const decisive = node.op === "and" ? false : true;
      if (left === decisive || right === decisive) return decisive;
      return left === null || right === null ? null : !decisive;
    }
    case "not": {
      const value = of(node.of);
      return value === null ? null : !value;
    }
    case "if":
      return of(node.test) === true ? of(node.then) : of(node.else);
    case "minMax": {
      const left = of(node.left);
      const right = of(node.right);
      if (left === null || right === null) return null;
      const order = compareValues(left, right, node.type);
      return (node.fn === "min" ? order <= 0 : order >= 0) ? left : right;
    }
    case "round": {
      const value = of(node.of) as number | null;
      return value === null ? null : roundHalfAway(value);
    }
    case "rate": {
      const key = of(node.key);
      if (key === null || !scope.rate) return null;
      const plain = typeof key === "object" ? key.amount : key;
      return readValue(scope.rate(node.table, plain, scope.today), node.type, scope.currency);
    }
  }
}

function arithmetic(node: Extract<Node, { kind: "arithmetic" }>, left: Value, right: Value): Value {
  if (left === null || right === null) return null;
  const pair = `${node.left.type} ${node.right.type}`;
  const op = node.op;
  switch (pair) {
    case "number number": {
      const [a, b] = [left as number, right as number];
      if (op === "/") return b === 0 ? null : a / b; // PostgreSQL would fail: null in both
      return op === "+" ? a + b : op === "-" ? a - b : a * b;
    }
    case "money money": {
      const [a, b] = [left as Money, right as Money];
      return { amount: op === "+" ? a.amount + b.amount : a.amount - b.amount, currency: a.currency };
    }
    case "money number":
    case "number money": {
      const money = (pair === "money number" ? left : right) as Money;
      const factor = (pair === "money number" ? right : left) as number;
      if (op === "/" && factor === 0) return null;
      const amount = op === "/" ? money.amount / factor : money.amount * factor;
      return { amount: roundHalfAway(amount), currency: money.currency };
    }
    case "date number":
    case "number date": {
      const date = (pair === "date number" ? left : right) as string;
      const days = roundHalfAway((pair === "date number" ? right : left) as number);
      return dayText(dayNumber(date)! + (op === "-" ? -days : days));
    }
    default:
      // date - date: whole days between.
      return dayNumber(left as string)! - dayNumber(right as string)!;
  }
}
