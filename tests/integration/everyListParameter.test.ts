import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { resources } from "../../src/resources";
import { domainModules } from "../../server/domain/modules";
import { TEXT_FILTER_OPERATORS, type FilterOperator } from "../../src/resources/define";
import { startTestBackend, type TestBackend } from "../support/testBackend";
import { ADMIN, AGENT, ALEX } from "../support/fixtures";

// Every filter and sort a declaration allows, each with a value the field can hold, answers 200:
// a module whose column is not what the field's filter compares (a ticket's priority filtered as
// its rank, a number against 'urgent') is a 500 the fuzz meets once in a hundred runs; here, every run.
let backend: TestBackend;
beforeAll(async () => {
  backend = await startTestBackend();
}, 120_000);
afterAll(() => backend?.close());

/** Who lists the resource: the admin or the agent when staff may, else Alex (his own). */
function lister(access: Partial<Record<string, unknown>> | undefined): string | undefined {
  if (access?.admin === "all") return ADMIN;
  if (access?.agent === "all") return AGENT;
  if (access?.subscriber) return ALEX;
  return undefined;
}

/** A value the field may hold, as a filter writes it: the record's own when one is listed, else one its schema takes. */
function valueOf(schema: z.ZodType | undefined, kind: string | undefined, listed: unknown): string {
  if (typeof listed === "string" || typeof listed === "number" || typeof listed === "boolean") return String(listed);
  let inner = schema;
  while (inner instanceof z.ZodNullable || inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
  if (inner instanceof z.ZodEnum) return String(inner.options[0]);
  if (kind === "money" || inner?.safeParse(1).success) return "1";
  if (inner?.safeParse(true).success) return "true";
  // Ids and references take any uuid (no record has it, which is a fine answer); dates, their own form.
  const text = [randomUUID(), "2026-01-01T00:00:00.000Z", "2026-01-01", "+15550100"].find(
    (candidate) => inner?.safeParse(candidate).success,
  );
  if (text) return text;
  return "a";
}

function filterValue(operator: FilterOperator, one: string, other: string): string {
  if (operator === "null" || operator === "nnull") return "true";
  if (operator === "in" || operator === "nin") return `${one},${other}`;
  if (operator === "between" || operator === "nbetween") return `${one},${other}`;
  if (TEXT_FILTER_OPERATORS.has(operator)) return "a";
  return one;
}

const listed = resources.filter((resource) => resource.source === "backend" && lister(resource.access.list));
/** The sorts a resource's module cannot continue by cursor (a search's score). */
const unkeyedSorts = (name: string): readonly string[] => domainModules[name]?.source.unkeyedSorts ?? [];

// Many lists hold no rows in a fresh backend: their filters are still planned and bound with a value
// of the field's type, which is where a column of the wrong type fails (as the ticket's priority did).
it("asks most of the declared resources", () => {
  expect(listed.length).toBeGreaterThan(20);
});

describe.each(listed.map((resource) => [resource.name, resource] as const))("%s", (_name, resource) => {
  const as = lister(resource.access.list)!;
  const path = `/api/v1/${resource.name}`;
  const shape = resource.schema.shape as Record<string, z.ZodType>;

  it("answers every declared filter and sort with records, never an error", async () => {
    const sample = await backend.get(`${path}?pageSize=2`, { as });
    expect(sample.statusCode, sample.body).toBe(200);
    const rows = sample.json<{ data: Record<string, unknown>[] }>().data;
    const failures: string[] = [];
    const ask = async (query: string) => {
      const res = await backend.get(`${path}?${query}`, { as });
      if (res.statusCode !== 200) failures.push(`${query} → ${res.statusCode} ${res.body.slice(0, 300)}`);
      return res.statusCode === 200 ? res.json<{ next?: string }>() : undefined;
    };
    for (const [field, operators] of Object.entries(resource.list.filters)) {
      const kind = (resource.fields as Partial<Record<string, { kind: string }>>)[field]?.kind;
      const one = valueOf(shape[field], kind, rows[0]?.[field]);
      const other = valueOf(shape[field], kind, rows[1]?.[field]);
      for (const operator of operators) {
        const value = encodeURIComponent(filterValue(operator, one, other));
        await ask(`filter[${field}][${operator}]=${value}`);
      }
    }
    for (const field of resource.list.sortable) {
      await ask(`sort=${field}`);
      // Keyset pages of one record: the second starts after the first's sort values (listCursor.ts).
      // A sort by a search's score has no keyset place (the module says so): that cursor is refused.
      if (unkeyedSorts(resource.name).includes(field)) continue;
      const first = await ask(`sort=-${field}&pageSize=1&cursor=`);
      if (first?.next) await ask(`sort=-${field}&pageSize=1&cursor=${encodeURIComponent(first.next)}`);
    }
    expect(failures, failures.join("\n")).toEqual([]);
  });
});
