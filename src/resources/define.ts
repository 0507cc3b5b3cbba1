import type { z } from "zod";

/**
 * The shape of a resource declaration: pure data plus a zod schema, no JSX, imported by the portal
 * (menus, routes, pages, access) and by the backend (validation, access, list queries) alike.
 */
export const ROLES = ["subscriber", "agent", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** How much of the operator's data a role may touch through an action. */
export type Scope = "all" | "own";

export const CRUD_ACTIONS = ["list", "show", "create", "edit", "delete"] as const;
export type CrudAction = (typeof CRUD_ACTIONS)[number];

/** Refine's filter operator names, as the list contract accepts them. */
export const FILTER_OPERATORS = [
  "eq", "ne", "lt", "gt", "lte", "gte", "in", "nin",
  "contains", "ncontains", "containss", "ncontainss",
  "startswith", "nstartswith", "endswith", "nendswith",
  "between", "nbetween", "null", "nnull",
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export type FieldKind = "text" | "id" | "enum" | "money" | "msisdn" | "number" | "datetime" | "dataMb" | "quantity" | "tags";

export interface FieldSpec {
  /** i18n key of the field label. */
  label: string;
  kind: FieldKind;
  /** For enums: the values, each translated under `enums.<field>.<value>`. */
  options?: readonly string[];
  /** For relations: the field holding the id of a record of another resource; rendered as a link. */
  reference?: { resource: string; idField: string };
}

export interface SortSpec<K extends string> {
  field: K;
  order: "asc" | "desc";
}

export interface ResourceDefinition<S extends z.ZodObject = z.ZodObject, K extends string = Extract<keyof z.output<S>, string>> {
  name: string;
  /** i18n keys: `resources.<name>.label`, etc. */
  label: string;
  /** Name in the icon map of the portal (src/components/icons.ts). */
  icon: string;
  /** The record as the API returns it. */
  schema: S;
  recordTitle: K;
  fields: Partial<Record<K, FieldSpec>>;
  list: {
    columns: readonly K[];
    defaultSort: readonly SortSpec<K>[];
    sortable: readonly K[];
    filters: Partial<Record<K, readonly FilterOperator[]>>;
    /** The `q` parameter: what free-text search matches (an i18n key for its placeholder). */
    search?: { placeholder: string };
  };
  show: readonly K[];
  /** Which role may do what, and over which records. Missing role = not allowed. */
  access: Partial<Record<CrudAction | (string & {}), Partial<Record<Role, Scope>>>>;
  /** How a subscriber's own records are found (documented path, enforced by the server module). */
  ownership?: { path: string };
  source: "backend" | "rtdb";
  audit: boolean;
}

/** Identity function that keeps the literal types of a declaration. */
export function defineResource<S extends z.ZodObject>(definition: ResourceDefinition<S>): ResourceDefinition<S> {
  return definition;
}
