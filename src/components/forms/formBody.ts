import type { DeclaredResource } from "../../resources/define";

type AnyRecord = Record<string, unknown>;

/** Kinds whose value is a list: left empty, they are sent as an empty list, not null. */
const LIST_KINDS = new Set(["tags", "files"]);

/**
 * A declared form's values as the request body: only the form's fields (PATCH sends only those: a
 * record's other fields are not the form's to change), empty inputs as null (the schema says whether
 * that is allowed), never as "" or undefined, and empty lists as []. Dates are already "YYYY-MM-DD"
 * and money `{amount, currency}` (the inputs hold them so).
 */
export function formBody(resource: DeclaredResource, fields: readonly string[], values: AnyRecord): AnyRecord {
  return Object.fromEntries(
    fields.map((field) => {
      const v = values[field];
      const empty = v === "" || v === undefined || v === null;
      return [field, empty ? (LIST_KINDS.has(resource.fields[field]?.kind ?? "") ? [] : null) : v];
    }),
  );
}
