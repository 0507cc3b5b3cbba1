import jsep from "jsep";
import { refuse } from "./types";

/**
 * Parsing with jsep (AST only, never evaluated). jsep keeps its operators, literals and hooks as
 * static state of one class shared by every user in the process; so rather than adding ours to it
 * for good, each parse swaps in this module's configuration and puts the previous one back
 * (parsing is synchronous, so nothing else can run in between).
 */

/** A jsep node with where it starts in the source, and for a binary one where its operator is. */
export type ParsedNode = jsep.Expression & { start?: number; end?: number; operatorAt?: number; grouped?: boolean };

interface JsepConfig {
  binary_ops: Record<string, number>;
  unary_ops: Record<string, number>;
  literals: Record<string, unknown>;
  right_associative: Set<string>;
  additional_identifier_chars: Set<string>;
  this_str: string;
  max_binop_len: number;
  max_unop_len: number;
  hooks: unknown;
}
interface JsepClass extends JsepConfig {
  new (source: string): { parse(): jsep.Expression };
}
const Jsep = (jsep as unknown as { Jsep: JsepClass }).Jsep;

/**
 * Our operators: `and`, `or`, `not` besides the arithmetic and comparisons. jsep's other JavaScript
 * operators stay parseable on purpose, so the checker can refuse them by name at their position
 * ("'&&' is not allowed, use 'and'") instead of a bare "unexpected character".
 */
const BINARY: Record<string, number> = {
  or: 1,
  "||": 1,
  "??": 1,
  and: 2,
  "&&": 2,
  "|": 3,
  "^": 4,
  "&": 5,
  "==": 6,
  "!=": 6,
  "===": 6,
  "!==": 6,
  "<": 7,
  ">": 7,
  "<=": 7,
  ">=": 7,
  "<<": 8,
  ">>": 8,
  ">>>": 8,
  "+": 9,
  "-": 9,
  "*": 10,
  "/": 10,
  "%": 10,
  "**": 11,
};
const UNARY: Record<string, number> = { "-": 1, not: 1, "!": 1, "+": 1, "~": 1 };
const maxLength = (ops: Record<string, number>) => Math.max(...Object.keys(ops).map((op) => op.length));

/**
 * Hooks that note where each token starts: jsep records no positions, and an error must say where.
 * `gobble-token` runs where a token starts and `after-token` where it ends, nested as tokens nest;
 * numbers are the one token jsep ends without `after-token`, so the first hook reads them itself.
 */
function positionHooks() {
  const starts: number[] = [];
  type Scope = { index: number; code: number; gobbleNumericLiteral(): ParsedNode };
  const isNumberStart = (code: number) => (code >= 48 && code <= 57) || code === 46;
  // A fresh instance of jsep's own Hooks class, so none of the shared hooks (its ternary plugin) run.
  const Hooks = (Object.getPrototypeOf(jsep.hooks) as { constructor: new () => jsep.IHooks }).constructor;
  const hooks = new Hooks();
  hooks.add("gobble-token", function (this: Scope, env: { node?: ParsedNode }) {
    starts.push(this.index);
    if (isNumberStart(this.code)) env.node = this.gobbleNumericLiteral();
  } as jsep.HookCallback);
  hooks.add("after-token", function (this: Scope & { expr: string }, env: { node?: ParsedNode | false }) {
    const start = starts.pop()!;
    if (!env.node) return;
    // A token starting with "(" is a group, which hands back its inner node: keep that node's own start.
    if (this.expr[start] === "(") env.node.grouped = true;
    if (env.node.start === undefined) Object.assign(env.node, { start, end: this.index });
  } as jsep.HookCallback);
  return hooks;
}

/** Fills in where binary nodes start and where their operator is (between the operands, past any ")"). */
function placeOperators(node: ParsedNode, source: string): void {
  for (const value of Object.values(node)) {
    const children = Array.isArray(value) ? value : [value];
    for (const child of children)
      if (child && typeof child === "object" && "type" in child) placeOperators(child as ParsedNode, source);
  }
  if (node.type !== "BinaryExpression") return;
  const left = node.left as ParsedNode;
  const right = node.right as ParsedNode;
  const from = left.end ?? left.start ?? 0;
  const found = source.indexOf(node.operator as string, from);
  node.operatorAt = found >= 0 && found < (right.start ?? source.length) ? found : from;
  node.start ??= left.start;
  node.end ??= right.end;
}

/** Parses one expression into jsep's tree with positions; a syntax error is an ExpressionError at its index. */
export function parse(source: string): ParsedNode {
  const saved: JsepConfig = {
    binary_ops: Jsep.binary_ops,
    unary_ops: Jsep.unary_ops,
    literals: Jsep.literals,
    right_associative: Jsep.right_associative,
    additional_identifier_chars: Jsep.additional_identifier_chars,
    this_str: Jsep.this_str,
    max_binop_len: Jsep.max_binop_len,
    max_unop_len: Jsep.max_unop_len,
    hooks: Jsep.hooks,
  };
  Object.assign(Jsep, {
    binary_ops: BINARY,
    unary_ops: UNARY,
    literals: { true: true, false: false, null: null },
    right_associative: new Set(["**"]),
    additional_identifier_chars: new Set(["_"]),
    this_str: "this",
    max_binop_len: maxLength(BINARY),
    max_unop_len: maxLength(UNARY),
    hooks: positionHooks(),
  });
  let tree: ParsedNode;
  try {
    tree = new Jsep(source).parse();
  } catch (error) {
    const { description, index } = error as { description?: string; index?: number };
    if (typeof index !== "number") throw error;
    // jsep knows no `?:`: point to if() instead.
    const hint = source[index] === "?" ? " (write if(condition, a, b))" : "";
    refuse(`${description ?? "syntax error"}${hint}`, source, index);
  } finally {
    Object.assign(Jsep, saved);
  }
  placeOperators(tree, source);
  return tree;
}
