import { translateTo } from "#i18n/dictionaries";
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

/**
 * A resource as its readers name it ("Cupones"), in the reader's language: its declared label, not
 * its path ("voucher-batches"), which the portal shows to nobody.
 */
export const resourceNoun =
  (resource: { name: string; label: string }): WordsParam =>
  (locale) =>
    translateTo(locale, resource.label, undefined, resource.name);

/** "Not found in Lines.": a record that does not exist or that the reader may not see (the same answer for both). */
export const noSuchRecord = (resource: { name: string; label: string }): Words =>
  words("engine.noSuchRecord", { resource: resourceNoun(resource) });
