/** The types a value of the expression language has; money is {amount, currency} in integer minor units. */
export type ExprType = "number" | "money" | "date" | "string" | "boolean";

export interface ExprEnv {
  /** The record's fields and their types (the caller derives them from field kinds). */
  fields: Record<string, ExprType>;
  /** Rate tables a `rate(...)` may read, by resource name, with the type of their value (money or number). */
  rateTables?: Record<string, ExprType>;
}

/** A refused expression: the message says what and where ("unknown field 'dayz' at 0"). */
export class ExpressionError extends Error {
  constructor(
    message: string,
    readonly expression: string,
    readonly position: number,
  ) {
    super(message);
    this.name = "ExpressionError";
  }
}

/** Throws the ExpressionError for `what` at a 0-based character index of `source`. */
export function refuse(what: string, source: string, at: number): never {
  throw new ExpressionError(`${what} at ${at}`, source, at);
}

export type Comparison = "==" | "!=" | "<" | "<=" | ">" | ">=";
export type Arithmetic = "+" | "-" | "*" | "/";

/**
 * The checked tree. Every node carries its type and every operator node the operand types were
 * checked, so evaluation and SQL are plain walks with no decisions left to make.
 */
export type Node =
  | { kind: "literal"; type: "number" | "string" | "boolean"; value: number | string | boolean }
  /** A `null` whose type its context fixed (an `if` branch); untyped nulls never leave the checker. */
  | { kind: "null"; type: ExprType }
  | { kind: "field"; type: ExprType; name: string }
  | { kind: "role"; type: "string" }
  | { kind: "today"; type: "date" }
  /** money(n): n major units of the operator's currency. */
  | { kind: "money"; type: "money"; of: Node }
  | { kind: "negate"; type: "number" | "money"; of: Node }
  | { kind: "arithmetic"; type: ExprType; op: Arithmetic; left: Node; right: Node }
  | { kind: "compare"; type: "boolean"; op: Comparison; left: Node; right: Node }
  | { kind: "isNull"; type: "boolean"; of: Node; negated: boolean }
  | { kind: "logic"; type: "boolean"; op: "and" | "or"; left: Node; right: Node }
  | { kind: "not"; type: "boolean"; of: Node }
  | { kind: "if"; type: ExprType; test: Node; then: Node; else: Node }
  | { kind: "minMax"; type: ExprType; fn: "min" | "max"; left: Node; right: Node }
  | { kind: "round"; type: "number"; of: Node }
  | { kind: "rate"; type: ExprType; table: string; key: Node; at: number };

export interface CompiledExpression {
  source: string;
  /** The result type. */
  type: ExprType;
  /** The record fields it reads. */
  fields: readonly string[];
  usesToday: boolean;
  usesRole: boolean;
  usesRate: boolean;
  /** The checked tree evaluate and toSql walk. */
  root: Node;
}
