import { afterEach, describe, expect, it } from "vitest";
import type { z } from "zod";
import { resources } from "../../src/resources";
import { CRUD_ACTIONS, type ResourceDefinition } from "../../src/resources/define";
import { setLocale, translate } from "../../src/i18n";
import { en } from "../../src/i18n/en";
import { es } from "../../src/i18n/es";
import { hasDomainModule } from "../../server/generic/references";
import { assertWritable } from "../../server/generic/writeRules";
import { fieldExpression, indexStatement } from "../../server/generic/fieldSql";

// Every declaration in the registry is checked the same way, so a product owner's new file is too.
const all = resources as readonly ResourceDefinition<any, any>[];
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

/** Every i18n key a declaration shows on screen. */
function keysOf(r: ResourceDefinition<any, any>): string[] {
  const keys = [r.label];
  if (r.list.search) keys.push(r.list.search.placeholder);
  for (const [field, spec] of Object.entries(r.fields)) {
    if (!spec) continue;
    keys.push(spec.label);
    if (spec.help) keys.push(spec.help);
    for (const option of spec.options ?? []) keys.push(`enums.${field}.${option}`);
  }
  for (const action of Object.values(r.actions ?? {})) keys.push(action.label);
  return keys;
}

afterEach(() => setLocale("en"));

describe.each(all.map((r) => [r.name, r] as const))("the declaration of %s", (_name, r) => {
  const shape = r.schema.shape as Record<string, z.ZodType>;

  it("names only fields of its schema in lists, shows, forms, filters, sorts and indexes", () => {
    const named = [
      ...r.list.columns, ...r.list.sortable, ...Object.keys(r.list.filters), ...r.list.defaultSort.map((s) => s.field), ...r.show,
      ...(r.form?.create ?? []), ...(r.form?.edit ?? []), ...(r.indexes ?? []), ...(r.list.search?.fields ?? []), r.recordTitle,
    ];
    expect(named.filter((field) => !shape[field])).toEqual([]);
  });

  it("labels everything it shows in English and Spanish", () => {
    for (const locale of ["en", "es"] as const) {
      setLocale(locale);
      const missing = keysOf(r).filter((key) => translate(key) === key);
      expect(missing, `missing ${locale} messages`).toEqual([]);
    }
  });

  it("brings the same message keys, with the same placeholders, in both languages, and relabels nothing built in", () => {
    if (!r.messages) return;
    expect(Object.keys(r.messages.es).sort()).toEqual(Object.keys(r.messages.en).sort());
    for (const [key, text] of Object.entries(r.messages.en)) expect(placeholders(r.messages.es[key]!)).toEqual(placeholders(text));
    const clashes = Object.entries(r.messages.en).filter(([key, text]) => key in en && en[key as keyof typeof en] !== text);
    expect(clashes, "keys the built-in dictionary already defines differently (the built-in text would win)").toEqual([]);
    const esClashes = Object.entries(r.messages.es).filter(([key, text]) => key in es && es[key as keyof typeof es] !== text);
    expect(esClashes).toEqual([]);
  });

  it("gives every named action an access entry and every access entry a meaning", () => {
    const actions = Object.keys(r.actions ?? {});
    for (const action of Object.keys(r.access)) expect([...CRUD_ACTIONS, ...actions]).toContain(action);
    for (const action of actions) expect(r.access[action], action).toBeDefined();
  });

});

const generic = all.filter((r) => r.source === "backend" && !hasDomainModule(r.name));
describe.each(generic.map((r) => [r.name, r] as const))("%s, served by the generic API", (_name, r) => {
  it("is complete enough for it, and its fields map to safe SQL", () => {
    expect(() => assertWritable(r)).not.toThrow();
    for (const field of r.indexes ?? []) expect(indexStatement(r, field)).toMatch(/^CREATE INDEX IF NOT EXISTS resource_documents_\w+_idx ON resource_documents \(operator_code, /);
    expect(() => fieldExpression(r, "x'); drop table plans; --")).toThrow(/not a valid field name/);
  });
});

describe("assertWritable", () => {
  const base = all.find((r) => r.name === "device-claims")!;

  it("refuses a form field the schema lacks, an action without access, and ownership through a non-reference", () => {
    expect(() => assertWritable({ ...base, form: { create: ["nope"], edit: [] } })).toThrow(/form.create names 'nope'/);
    expect(() => assertWritable({ ...base, actions: { close: { label: "x", set: { status: "approved" } } } })).toThrow(/action 'close' has no access entry/);
    expect(() => assertWritable({ ...base, ownership: { path: "x", through: "description" } })).toThrow(/ownership.through must name a reference field/);
    expect(() => assertWritable({ ...base, defaults: { assessment: null } })).toThrow(/'status' is neither in form.create nor in defaults/);
    expect(() => assertWritable({ ...base, defaults: { status: "lost", assessment: null } })).toThrow(/the default of 'status' does not pass its schema/);
    expect(() => assertWritable({ ...base, actions: { ...base.actions, approve: { label: "x", set: { status: "maybe" } } } })).toThrow(/action 'approve' sets 'status' to a value its schema refuses/);
  });
});
