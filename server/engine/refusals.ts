import { words, type Words, type WordsParam } from "../i18n/words";

const CRUD = new Set(["list", "show", "create", "edit", "delete"]);

/**
 * "Your role (agent) may not list staff.": the generic verbs each have their own sentence (Spanish
 * words them differently); a declared action is named by its code.
 */
export function roleMayNot(role: string, action: string, resource: string): Words {
  if (CRUD.has(action))
    return words(`engine.roleMayNot.${action as "list" | "show" | "create" | "edit" | "delete"}`, { role, resource });
  return words("engine.roleMayNot.action", { role, action, resource });
}

/** Values as "a or b or c" in the reader's language. */
export const either = (values: readonly string[]): WordsParam =>
  values.length <= 1 ? (values[0] ?? "") : words("engine.either", { first: values[0]!, rest: either(values.slice(1)) });
