import { afterEach, describe, expect, it } from "vitest";
import type { z } from "zod";
import { resources } from "../../src/resources";
import { CRUD_ACTIONS, type ResourceDefinition } from "../../src/resources/define";
import { setLocale, translate } from "../../src/i18n";
import { en } from "../../src/i18n/en";
import { es } from "../../src/i18n/es";
import { addResourceMessages } from "../../src/i18n/resourceMessages";
import { assertWritable, writeBodySchema } from "../../server/generic/writeRules";
import { buildModules } from "../../server/engine/registry";
import { documentModule } from "../../server/generic/documentModule";
import { domainModules } from "../../server/domain/modules";
import type { DeclaredResource } from "../../server/lib/declaredResource";
import { fieldExpression, indexStatement } from "../../server/generic/fieldSql";
import { resourceViews } from "../../src/pages/resourceViews";

// Every declaration in the registry is checked the same way, so a product owner's new file is too.
const all = resources as readonly DeclaredResource[];
addResourceMessages();
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

/** The keys of one field: its label, its help, the label of each of its values. */
function specKeys(field: string, spec: NonNullable<ResourceDefinition["fields"][string]>): string[] {
  return [
    spec.label,
    ...(spec.help ? [spec.help] : []),
    ...(spec.options ?? []).map((option) => `${spec.labels ?? `enums.${field}`}.${option}`),
  ];
}

/** Every i18n key a declaration shows on screen. */
function keysOf(r: DeclaredResource): string[] {
  const keys = [r.label];
  if (r.list.search) keys.push(r.list.search.placeholder);
  for (const [field, spec] of Object.entries(r.fields)) {
    if (!spec) continue;
    keys.push(...specKeys(field, spec));
  }
  for (const action of Object.values(r.actions ?? {})) {
    keys.push(action.label);
    if (action.confirm) keys.push(action.confirm);
    for (const [field, spec] of Object.entries(action.inputFields ?? {})) keys.push(...specKeys(field, spec));
    for (const [field, spec] of Object.entries(action.result?.fields ?? {})) keys.push(...specKeys(field, spec));
  }
  for (const text of [...(r.subscriberCard?.title ?? []), ...(r.subscriberCard?.lines ?? [])])
    keys.push(typeof text === "string" ? text : text.text);
  return keys;
}

afterEach(() => setLocale("en"));

describe.each(all.map((r) => [r.name, r] as const))("the declaration of %s", (_name, r) => {
  const shape = r.schema.shape as Record<string, z.ZodType>;

  it("names only fields of its schema in lists, shows, forms, filters, sorts and indexes", () => {
    const named = [
      ...r.list.columns,
      ...r.list.sortable,
      ...Object.keys(r.list.filters),
      ...r.list.defaultSort.map((s) => s.field),
      ...r.show,
      ...(r.form?.create ?? []),
      ...(r.form?.edit ?? []),
      ...(r.indexes ?? []),
      ...(r.list.search?.fields ?? []),
      r.recordTitle,
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
    for (const [key, text] of Object.entries(r.messages.en))
      expect(placeholders(r.messages.es[key]!)).toEqual(placeholders(text));
    const clashes = Object.entries(r.messages.en).filter(
      ([key, text]) => key in en && en[key as keyof typeof en] !== text,
    );
    expect(clashes, "keys the built-in dictionary already defines differently (the built-in text would win)").toEqual(
      [],
    );
    const esClashes = Object.entries(r.messages.es).filter(
      ([key, text]) => key in es && es[key as keyof typeof es] !== text,
    );
    expect(esClashes).toEqual([]);
  });

  it("words its subscriber card with its own fields, actions a subscriber may run, and a removal subscribers may make", () => {
    const card = r.subscriberCard;
    if (!card) return;
    expect(card.title.length).toBeGreaterThan(0);
    const texts = [...card.title, ...(card.lines ?? [])];
    const conditions = texts.flatMap((text) => (typeof text === "string" ? [] : Object.keys(text.when)));
    // A sentence's {{field}} (or {{field.raw}}) and a text's `when` name fields the card is given.
    const placed = texts.flatMap((text) =>
      [...translate(typeof text === "string" ? text : text.text).matchAll(/\{\{(\w+)(?:\.raw)?\}\}/g)].map(
        (m) => m[1]!,
      ),
    );
    expect([...conditions, ...placed].filter((field) => !r.fields[field])).toEqual([]);
    for (const action of card.actions ?? []) {
      expect(r.actions?.[action], action).toBeDefined();
      expect(r.access[action]?.subscriber, action).toBeDefined();
    }
    if (card.remove) expect(r.access.delete?.subscriber).toBeDefined();
  });

  it("gives every named action an access entry and every access entry a meaning", () => {
    const actions = Object.keys(r.actions ?? {});
    // Besides CRUD and named actions, one read the module checks itself: the holder's contact details,
    // sign-in methods and notices on the 360 (`profile`, issue 27: agents once the caller is verified).
    const reads = r.name === "subscribers" ? ["profile"] : [];
    for (const action of Object.keys(r.access)) expect([...CRUD_ACTIONS, ...actions, ...reads]).toContain(action);
    for (const action of actions) expect(r.access[action], action).toBeDefined();
  });
});

describe("the registry", () => {
  it("is served whole: each declaration has a module that honours every key it uses", () => {
    expect(() => buildModules(all)).not.toThrow();
  });

  it('declares with store "table" every resource that server/domain/modules.ts has a module for, and no other', () => {
    const tables = all
      .filter((r) => r.store === "table")
      .map((r) => r.name)
      .sort();
    expect(Object.keys(domainModules).sort()).toEqual(tables);
  });

  it("gives every page of the portal's that writes without a declared form a module route to write through", () => {
    const served = buildModules(all);
    for (const [name, views] of Object.entries(resourceViews)) {
      const entry = served.get(name) ?? { resource: all.find((r) => r.name === name), module: undefined };
      expect(entry.resource, `src/pages/resourceViews.ts names '${name}', which no declaration has`).toBeDefined();
      for (const view of ["create", "edit"] as const) {
        if (!views?.[view] || entry.resource!.form?.[view].length) continue;
        expect(
          typeof entry.module?.extraRoutes,
          `${name}: its own ${view} page has no form and its module no route`,
        ).toBe("function");
      }
    }
  });

  it("names only icons that @ant-design/icons has", async () => {
    const icons = (await import("@ant-design/icons")) as unknown as Record<string, unknown>;
    expect(all.filter((r) => !icons[r.icon]).map((r) => `${r.name}: ${r.icon}`)).toEqual([]);
  });

  it("refuses what a serving path cannot honour", () => {
    const lines = all.find((r) => r.name === "lines")!;
    const claims = all.find((r) => r.name === "device-claims")!;
    expect(() => buildModules([lines], {})).toThrow(
      /lines: declared with store "table" but server\/domain\/modules.ts has no module/,
    );
    expect(() =>
      buildModules([{ ...lines, actions: { close: { label: "x", handler: "lines.suspend" } } }], {
        lines: domainModules.lines!,
      }),
    ).toThrow(/action 'close' has no access entry/);
    expect(() =>
      buildModules(
        [{ ...lines, actions: { ...lines.actions, suspend: { label: "x", set: { status: "suspended" } } } }],
        { lines: domainModules.lines! },
      ),
    ).toThrow(/only documents can; give it a handler/);
    expect(() =>
      buildModules([{ ...claims, actions: { ...claims.actions, approve: { label: "x", handler: "nope.nope" } } }], {}),
    ).toThrow(/names handler 'nope.nope'/);
    expect(() =>
      buildModules([{ ...lines, form: { create: ["msisdn"], edit: [] } }], { lines: domainModules.lines! }),
    ).toThrow(/its module cannot create records/);
    expect(() => buildModules([{ ...claims, list: { ...claims.list, filters: { nope: ["eq"] } } }], {})).toThrow(
      /'nope' is filterable or sortable but its schema has no such field/,
    );
    // A module's own sort for a field the declaration does not let be sorted would never be used.
    const sortsPlan = { ...domainModules.lines!.source, sortColumns: { planName: domainModules.lines!.source.id } };
    expect(() =>
      buildModules([{ ...lines, list: { ...lines.list, sortable: [] } }], {
        lines: { ...domainModules.lines!, source: sortsPlan },
      }),
    ).toThrow(/sorts 'planName' its own way, but the declaration does not let it be sorted/);
    // A download is served by the module's own route.
    const withoutRoutes = { ...domainModules.lines!, extraRoutes: undefined };
    expect(() =>
      buildModules([{ ...lines, downloads: [{ path: "pdf", label: "x", fileName: "msisdn", extension: "pdf" }] }], {
        lines: withoutRoutes,
      }),
    ).toThrow(/download 'pdf' is declared but its module serves no routes/);
    expect(() =>
      buildModules([{ ...lines, downloads: [{ path: "pdf", label: "x", fileName: "nope", extension: "pdf" }] }], {
        lines: {
          ...withoutRoutes,
          extraRoutes: (services) => domainModules["voucher-batches"]!.extraRoutes!(services),
        },
      }),
    ).toThrow(/named by 'nope', which its schema lacks/);
  });
});

const generic = all.filter((r) => r.source === "backend" && r.store !== "table");
describe.each(generic.map((r) => [r.name, r] as const))("%s, served by the generic API", (_name, r) => {
  it("is complete enough for it, and its fields map to safe SQL", () => {
    expect(() => assertWritable(r)).not.toThrow();
    for (const field of r.indexes ?? [])
      expect(indexStatement(r, field)).toMatch(
        /^CREATE INDEX IF NOT EXISTS resource_documents_\w+_idx ON resource_documents \(operator_code, /,
      );
    expect(() => fieldExpression(r, "x'); drop table plans; --")).toThrow(/not a valid field name/);
  });
});

describe("assertWritable", () => {
  const base = all.find((r) => r.name === "device-claims")!;

  it("refuses a form field the schema lacks, a write rule for a field it lacks, and ownership through a non-reference", () => {
    expect(() => assertWritable({ ...base, form: { create: ["nope"], edit: [] } })).toThrow(/form.create names 'nope'/);
    expect(() => assertWritable({ ...base, writeRules: { nope: base.schema.shape.description as z.ZodType } })).toThrow(
      /writeRules names 'nope'/,
    );
    expect(() => assertWritable({ ...base, ownership: { path: "x", through: "description" } })).toThrow(
      /ownership.through must name a reference field/,
    );
    expect(() => assertWritable({ ...base, defaults: { assessment: null } } as DeclaredResource)).toThrow(
      /'status' is neither in form.create nor in defaults/,
    );
    expect(() =>
      assertWritable({ ...base, defaults: { status: "lost", assessment: null } } as DeclaredResource),
    ).toThrow(/the default of 'status' does not pass its schema/);
    expect(() =>
      assertWritable({ ...base, actions: { ...base.actions, approve: { label: "x", set: { status: "maybe" } } } }),
    ).toThrow(/action 'approve' sets 'status' to a value its schema refuses/);
  });
});

describe("write rules", () => {
  const claims = all.find((r) => r.name === "device-claims")!;
  const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);

  it("check what is written, never what is read: a claim dated in the future is refused, a stored one stays readable", () => {
    const body = {
      lineId: "00000000-0000-4000-8000-000000000000",
      incident: "damage",
      occurredOn: tomorrow,
      description: "Dropped it in the sea",
    };
    const refused = writeBodySchema(claims, "create").safeParse(body);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => i.path.join("."))).toEqual(["occurredOn"]);
    const stored = {
      ...body,
      id: "00000000-0000-4000-8000-000000000001",
      status: "submitted",
      assessment: null,
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    };
    expect(claims.schema.safeParse(stored).success).toBe(true);
    expect(typeof documentModule(claims).source.toRecord).toBe("function");
  });
});
