/**
 * The declaration expression language (issue 29): computed fields, defaults, checks, allowedIf,
 * schedules and effect amounts. One implementation shared by the browser and the server: parse with
 * jsep (a tree, never eval), type-check against the record's fields, then evaluate in JavaScript or
 * write as SQL with the same results.
 */
import { check } from "./check";
import { parse } from "./parse";
import type { CompiledExpression, ExprEnv } from "./types";

export { ExpressionError } from "./types";
export type { CompiledExpression, ExprEnv, ExprType } from "./types";
export { evaluateExpression, type EvalScope } from "./evaluate";
export { expressionToSql, type SqlScope } from "./toSql";

/** Parses and type-checks `source` against the record's fields; throws ExpressionError with the position. */
export function compileExpression(source: string, env: ExprEnv): CompiledExpression {
  const { root, fields, usesToday, usesRole, usesRate } = check(parse(source), source, env);
  return { source, type: root.type, fields: [...fields], usesToday, usesRole, usesRate, root };
}
