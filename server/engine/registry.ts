import { handlers } from "../domain/handlers";
import { documentModuleFactories, domainModules } from "../domain/modules";
import { documentModule } from "../generic/documentModule";
import type { ModuleMap } from "./records";
import type { DomainModule } from "./types";
import type { DeclaredResource } from "../lib/declaredResource";
import { declaredExpressions, postedLabelKeys, quotesAction } from "#resources/expressions/declaration";
import { addPostedForms } from "#i18n/postedText";
import { addMessages } from "#i18n/dictionaries";

/**
 * Every backend resource of the registry with the module that serves it: its domain module for
 * `store: "table"`, the generic document module otherwise. Refuses, at start-up, a declaration its
 * serving path cannot honour, so a mistake fails loudly rather than being ignored per request.
 */
export function buildModules(
  resources: readonly DeclaredResource[],
  modules: Record<string, DomainModule> = domainModules,
): ModuleMap {
  const map = new Map<string, { resource: DeclaredResource; module: DomainModule }>();
  for (const resource of resources) {
    if (resource.source !== "backend") continue;
    if (map.has(resource.name)) throw new Error(`${resource.name}: declared twice`);
    // Documents get the generic module, or the generic module with domain effects added (CRM leads).
    const module =
      resource.store === "table"
        ? modules[resource.name]
        : (documentModuleFactories[resource.name] ?? documentModule)(resource);
    if (!module)
      throw new Error(
        `${resource.name}: declared with store "table" but server/domain/modules.ts has no module for it`,
      );
    assertServable(resource, module);
    // The declaration's own words, which its refusals, ledger reasons and notices speak on this side too.
    if (resource.messages) addMessages(resource.messages);
    addPostedForms(postedLabelKeys(resource));
    map.set(resource.name, { resource, module });
  }
  return map;
}

/** What only the factory can check: each key of the declaration has something that honours it. */
export function assertServable(resource: DeclaredResource, module: DomainModule) {
  const table = resource.store === "table";
  // Every expression of the declaration, type-checked against its fields: a mistake names its file and position.
  const expressions = declaredExpressions(resource);
  if (expressions.effects.onCreate.length && !resource.form?.create.length)
    throw new Error(`${resource.name}: onCreate is declared but nobody can create its records (no form.create)`);
  const fieldsOf = resource.schema.shape as Record<string, { safeParse(value: unknown): { success: boolean } }>;
  for (const schedule of expressions.schedules) {
    for (const [field, value] of Object.entries(schedule.set)) {
      if (!fieldsOf[field]?.safeParse(value).success)
        throw new Error(`${resource.name}: schedule '${schedule.name}' sets '${field}' to a value its schema refuses`);
    }
  }
  if (resource.form?.create.length && !module.writer?.create)
    throw new Error(`${resource.name}: form.create is declared but its module cannot create records`);
  if (resource.form?.edit.length && !module.writer?.edit)
    throw new Error(`${resource.name}: form.edit is declared but its module cannot edit records`);
  if (resource.access.delete && !module.writer?.remove)
    throw new Error(`${resource.name}: access.delete is declared but its module cannot delete records`);
  const shape = resource.schema.shape as Record<string, unknown>;
  for (const download of resource.downloads ?? []) {
    if (!module.extraRoutes)
      throw new Error(
        `${resource.name}: download '${download.path}' is declared but its module serves no routes of its own`,
      );
    if (!shape[download.fileName])
      throw new Error(
        `${resource.name}: download '${download.path}' is named by '${download.fileName}', which its schema lacks`,
      );
  }
  for (const field of Object.keys(module.source.sortColumns ?? {}))
    if (!resource.list.sortable.includes(field))
      throw new Error(
        `${resource.name}: its module sorts '${field}' its own way, but the declaration does not let it be sorted`,
      );
  for (const field of [...Object.keys(resource.list.filters), ...resource.list.sortable]) {
    if (!shape[field])
      throw new Error(`${resource.name}: '${field}' is filterable or sortable but its schema has no such field`);
    if (!module.source.columns[field])
      throw new Error(`${resource.name}: '${field}' is filterable or sortable but its module has no column for it`);
  }
  for (const [action, roles] of Object.entries(resource.access)) {
    if (Object.values(roles ?? {}).includes("verified") && !module.source.knowsHolders)
      throw new Error(
        `${resource.name}: '${action}' is declared "verified", but its module does not know each record's holder`,
      );
  }
  const shared = resource.ownership?.sharedWith;
  if (shared && !module.source.knowsAccounts)
    throw new Error(`${resource.name}: ownership.sharedWith is declared, but its records are not an account's`);
  if (shared?.member && !module.source.knowsLines)
    throw new Error(
      `${resource.name}: ownership.sharedWith.member is declared, but its module does not know each record's line`,
    );
  const listed = (who: "all" | readonly string[] | undefined): readonly string[] =>
    who === undefined || who === "all" ? [] : who;
  for (const action of [...listed(shared?.manager), ...listed(shared?.member)]) {
    if (!resource.access[action]?.subscriber)
      throw new Error(
        `${resource.name}: '${action}' is shared with people on the account, but subscribers may not do it`,
      );
  }
  if (resource.list.search && !module.source.search)
    throw new Error(`${resource.name}: list.search is declared but its module cannot search`);
  for (const [name, action] of Object.entries(resource.actions ?? {})) {
    if (!resource.access[name])
      throw new Error(`${resource.name}: action '${name}' has no access entry, so nobody could run it`);
    if (action.servedBy === "module") {
      if (action.handler || action.set)
        throw new Error(
          `${resource.name}: action '${name}' is served by its module; it names no handler and sets nothing`,
        );
      if (!module.extraRoutes)
        throw new Error(`${resource.name}: action '${name}' is served by its module, which has no routes`);
      continue;
    }
    if (!action.handler && !action.set)
      throw new Error(`${resource.name}: action '${name}' neither sets fields nor names a handler`);
    if (action.handler && action.set)
      throw new Error(`${resource.name}: action '${name}' both sets fields and names a handler; choose one`);
    if (action.set && (table || !module.writer?.set))
      throw new Error(
        `${resource.name}: action '${name}' sets fixed fields, which only documents can; give it a handler`,
      );
    if (action.handler && !handlers[action.handler])
      throw new Error(
        `${resource.name}: action '${name}' names handler '${action.handler}', which server/domain/handlers.ts lacks`,
      );
    if (action.effects?.length && !action.set)
      throw new Error(
        `${resource.name}: action '${name}' declares effects, which go with \`set\` (a handler does its own)`,
      );
    if (action.preview && !(action.handler && handlers[action.handler]?.preview) && !quotesAction(resource, name))
      throw new Error(
        `${resource.name}: action '${name}' declares a preview, which neither its handler nor its effects give`,
      );
    if ((action.input || action.result) && !action.handler)
      throw new Error(`${resource.name}: action '${name}' takes input or gives a result, which needs a handler`);
    for (const [field, spec] of Object.entries(action.inputFields ?? {})) {
      for (const value of Object.keys(spec.optionToggles ?? {})) {
        if (!spec.options?.includes(value))
          throw new Error(
            `${resource.name}: action '${name}' toggles ${field} "${value}", which is not one of its options`,
          );
      }
    }
  }
}
