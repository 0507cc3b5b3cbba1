import type { ParsedNode } from "./parse";
import { refuse, type Arithmetic, type Comparison, type ExprEnv, type ExprType, type Node } from "./types";

/**
 * Type-checking jsep's tree into the checked tree (types.ts). Everything the language does not have
 * is refused here with its position, so a declaration fails at start-up rather than on a request.
 */

/** A `null` literal before its context gives it a type; only ==/!= and if() branches accept one. */
type Checked = Node | { kind: "null"; type: "null" };

const COMPARISONS = new Set<string>(["==", "!=", "<", "<=", ">", ">="]);
const ARITHMETIC: Record<string, string> = { "+": "add", "-": "subtract", "*": "multiply", "/": "divide" };
/** JavaScript operators jsep parses that the language spells otherwise. */
const INSTEAD: Record<string, string> = { "&&": "and", "||": "or", "!": "not", "===": "==", "!==": "!=" };
const ARITY: Record<string, number> = { today: 0, if: 3, rate: 2, min: 2, max: 2, round: 1, money: 1 };

/** The result type of `left op right`, or undefined when the language has no such operation. */
function arithmeticType(op: Arithmetic, left: ExprType, right: ExprType): ExprType | undefined {
  const pair = `${left} ${op} ${right}`;
  if (left === "number" && right === "number") return "number";
  if (["money + money", "money - money", "money * number", "number * money", "money / number"].includes(pair))
    return "money";
  if (["date + number", "number + date", "date - number"].includes(pair)) return "date";
  if (pair === "date - date") return "number";
  return undefined;
}

export interface CheckResult {
  root: Node;
  fields: Set<string>;
  usesToday: boolean;
  usesRole: boolean;
  usesRate: boolean;
}

export function check(tree: ParsedNode, source: string, env: ExprEnv): CheckResult {
  const result: CheckResult = {
    root: undefined as never,
    fields: new Set(),
    usesToday: false,
    usesRole: false,
    usesRate: false,
  };
  const at = (node: ParsedNode) => node.start ?? 0;

  /** A checked operand that must have a type: a bare `null` here is refused. */
  const typed = (node: ParsedNode): Node => {
    const checked = visit(node);
    if (checked.type === "null")
      refuse("null can only be compared (== null, != null) or be a branch of if()", source, at(node));
    return checked;
  };
  const expect = (node: ParsedNode, types: readonly ExprType[], what: string): Node => {
    const checked = typed(node);
    if (!types.includes(checked.type))
      refuse(`${what} needs ${types.join(" or ")}, not ${checked.type}`, source, at(node));
    return checked;
  };

  function visit(node: ParsedNode): Checked {
    switch (node.type) {
      case "Literal":
        return literal(node);
      case "Identifier":
        return identifier(node);
      case "CallExpression":
        return call(node);
      case "UnaryExpression":
        return unary(node);
      case "BinaryExpression":
        return binary(node);
      case "MemberExpression":
        return refuse("member access ('.' or '[…]') is not allowed", source, at(node));
      case "ThisExpression":
        return refuse("'this' is not allowed", source, at(node));
      case "ArrayExpression":
        return refuse("lists ('[…]') are not allowed", source, at(node));
      case "SequenceExpression":
        return refuse("a list of expressions ('a, b') is not allowed", source, at(node));
      case "Compound": {
        const body = node.body as ParsedNode[];
        if (body.length === 0) return refuse("the expression is empty", source, 0);
        // jsep reads "a b" or "a; b" as two expressions: point to where the second begins.
        return refuse("expected an operator before this", source, at(body[1] ?? body[0]!));
      }
      default:
        return refuse(`'${node.type}' is not allowed`, source, at(node));
    }
  }

  function literal(node: ParsedNode): Checked {
    const value = node.value;
    if (value === null) return { kind: "null", type: "null" };
    if (typeof value === "number") {
      if (!Number.isFinite(value)) refuse(`the number ${node.raw as string} is too large`, source, at(node));
      return { kind: "literal", type: "number", value };
    }
    if (typeof value === "string") {
      // PostgreSQL text cannot hold NUL: refuse it here rather than fail in SQL.
      if (value.includes("\u0000")) refuse("a text cannot contain the NUL character", source, at(node));
      return { kind: "literal", type: "string", value };
    }
    if (typeof value === "boolean") return { kind: "literal", type: "boolean", value };
    return refuse(`the literal ${node.raw as string} is not allowed`, source, at(node));
  }

  function identifier(node: ParsedNode): Checked {
    const name = node.name as string;
    // `role` is always who acts (allowedIf reads it), never a record field of that name.
    if (name === "role") {
      result.usesRole = true;
      return { kind: "role", type: "string" };
    }
    const type = Object.hasOwn(env.fields, name) ? env.fields[name] : undefined;
    if (type) {
      result.fields.add(name);
      return { kind: "field", type, name };
    }
    const hint = Object.hasOwn(ARITY, name) ? ` (call it: ${name}(…))` : "";
    return refuse(`unknown field '${name}'${hint}`, source, at(node));
  }

  function call(node: ParsedNode): Checked {
    const callee = node.callee as ParsedNode;
    const args = node.arguments as ParsedNode[];
    if (callee.type !== "Identifier") return refuse("only a function's name can be called", source, at(node));
    const name = callee.name as string;
    if (!Object.hasOwn(ARITY, name)) return refuse(`unknown function '${name}'`, source, at(node));
    const arity = ARITY[name]!;
    if (args.length !== arity)
      refuse(`${name}() takes ${arity} argument${arity === 1 ? "" : "s"}, not ${args.length}`, source, at(node));
    switch (name) {
      case "today":
        result.usesToday = true;
        return { kind: "today", type: "date" };
      case "money":
        return { kind: "money", type: "money", of: expect(args[0]!, ["number"], "money()") };
      case "round":
        return { kind: "round", type: "number", of: expect(args[0]!, ["number"], "round()") };
      case "min":
      case "max": {
        const left = expect(args[0]!, ["number", "money", "date"], `${name}()`);
        const right = expect(args[1]!, [left.type], `${name}()`);
        return { kind: "minMax", type: left.type, fn: name, left, right };
      }
      case "if":
        return conditional(node, args);
      default:
        return rate(node, args);
    }
  }

  function conditional(node: ParsedNode, args: ParsedNode[]): Checked {
    const test = expect(args[0]!, ["boolean"], "the condition of if()");
    const then = visit(args[1]!);
    const otherwise = visit(args[2]!);
    if (then.type === "null" && otherwise.type === "null") return { kind: "null", type: "null" };
    // A `null` branch takes the other branch's type.
    const type = then.type === "null" ? (otherwise.type as ExprType) : then.type;
    const typedBranch = (branch: Checked, arg: ParsedNode): Node => {
      if (branch.type === "null") return { kind: "null", type };
      if (branch.type !== type) refuse(`the branches of if() differ: ${type} and ${branch.type}`, source, at(arg));
      return branch;
    };
    return { kind: "if", type, test, then: typedBranch(then, args[1]!), else: typedBranch(otherwise, args[2]!) };
  }

  function rate(node: ParsedNode, args: ParsedNode[]): Checked {
    const [name, keyNode] = args as [ParsedNode, ParsedNode];
    if (name.type !== "Literal" || typeof name.value !== "string")
      return refuse("rate() takes the rate table's name in quotes", source, at(name));
    const type = env.rateTables && Object.hasOwn(env.rateTables, name.value) ? env.rateTables[name.value] : undefined;
    if (!type) return refuse(`unknown rate table '${name.value}'`, source, at(name));
    result.usesRate = true;
    return { kind: "rate", type, table: name.value, key: typed(keyNode), at: at(node) };
  }

  function unary(node: ParsedNode): Checked {
    const operator = node.operator as string;
    const argument = node.argument as ParsedNode;
    if (operator === "-") {
      const of = expect(argument, ["number", "money"], "'-'");
      return { kind: "negate", type: of.type as "number" | "money", of };
    }
    if (operator === "not") return { kind: "not", type: "boolean", of: expect(argument, ["boolean"], "'not'") };
    return refuseOperator(operator, at(node));
  }

  function refuseOperator(operator: string, position: number): never {
    const instead = INSTEAD[operator];
    return refuse(`'${operator}' is not allowed${instead ? `: write '${instead}'` : ""}`, source, position);
  }

  function binary(node: ParsedNode): Checked {
    const operator = node.operator as string;
    const position = node.operatorAt ?? at(node);
    const leftNode = node.left as ParsedNode;
    const rightNode = node.right as ParsedNode;
    if (operator === "and" || operator === "or") {
      const left = expect(leftNode, ["boolean"], `'${operator}'`);
      return {
        kind: "logic",
        type: "boolean",
        op: operator,
        left,
        right: expect(rightNode, ["boolean"], `'${operator}'`),
      };
    }
    if (COMPARISONS.has(operator)) return comparison(operator as Comparison, leftNode, rightNode, position);
    if (!ARITHMETIC[operator]) return refuseOperator(operator, position);
    const left = typed(leftNode);
    const right = typed(rightNode);
    const type = arithmeticType(operator as Arithmetic, left.type, right.type);
    if (!type) refuse(`cannot ${ARITHMETIC[operator]} ${left.type} and ${right.type}`, source, position);
    return { kind: "arithmetic", type, op: operator as Arithmetic, left, right };
  }

  function comparison(op: Comparison, leftNode: ParsedNode, rightNode: ParsedNode, position: number): Checked {
    // `not a == b` reads as `(not a) == b`: ask for the parentheses rather than surprise.
    if (leftNode.type === "UnaryExpression" && leftNode.operator === "not" && !leftNode.grouped)
      refuse(`write 'not (…)' around a comparison`, source, at(leftNode));
    const left = visit(leftNode);
    const right = visit(rightNode);
    if (left.type === "null" || right.type === "null") {
      if (op !== "==" && op !== "!=") refuse(`compare with null only by == or !=`, source, position);
      if (left.type === "null" && right.type === "null") refuse("both sides are null", source, position);
      const of = (left.type === "null" ? right : left) as Node;
      return { kind: "isNull", type: "boolean", of, negated: op === "!=" };
    }
    if (left.type !== right.type) refuse(`cannot compare ${left.type} and ${right.type}`, source, position);
    if (left.type === "boolean" && op !== "==" && op !== "!=")
      refuse(`booleans cannot be ordered with '${op}'`, source, position);
    return { kind: "compare", type: "boolean", op, left, right };
  }

  const root = visit(tree);
  if (root.type === "null") refuse("the expression is always null", source, 0);
  result.root = root;
  return result;
}
