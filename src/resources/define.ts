import type { ComponentType } from "react";
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

export type FieldKind =
  | "text" | "longText" | "id" | "enum" | "money" | "msisdn" | "number" | "boolean"
  | "date" | "datetime" | "dataMb" | "quantity" | "tags" | "reference";

export interface FieldSpec {
  /** i18n key of the field label. */
  label: string;
  kind: FieldKind;
  /** For enums: the values, each translated under `enums.<field>.<value>`. */
  options?: readonly string[];
  /**
   * A relation to a record of another resource, rendered as a link (and as a select in forms).
   * `idField` names the field holding its id when this field is a joined label (lines.planName);
   * without it, this field itself holds the id (kind "reference").
   */
  reference?: { resource: string; idField?: string };
  /** Roles that may write this field; others get 403 naming it. Unset: whoever may create/edit. */
  writableBy?: readonly Role[];
  /** i18n key of a hint shown under the form input. */
  help?: string;
}

/** A named action on one record (e.g. approve): sets fields, when the record is in one of the given states. */
export interface ActionSpec<K extends string = string> {
  /** i18n key of the button label. */
  label: string;
  /** The fields the action sets, to fixed values. */
  set: Partial<Record<K, string | number | boolean | null>>;
  /** Allowed only while each named field holds one of these values (e.g. status: ["submitted"]). */
  when?: Partial<Record<K, readonly (string | number | boolean | null)[]>>;
  /** The caller must give a reason, kept in the audit trail. */
  reason?: boolean;
  /** Red button and a confirmation. */
  danger?: boolean;
}

/** The views the generic pages render, each replaceable by a custom page. */
export const VIEWS = ["list", "show", "create", "edit"] as const;
export type View = (typeof VIEWS)[number];
export type ViewComponent = ComponentType<{ resource: ResourceDefinition<any, any> }>;

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
    /** The `q` parameter: an i18n key for its placeholder and, for the generic API, the text fields it matches. */
    search?: { placeholder: string; fields?: readonly K[] };
  };
  show: readonly K[];
  /** The fields of the create and edit forms, in order; server-set fields (id, times, status) stay out. */
  form?: { create: readonly K[]; edit: readonly K[] };
  /** Values a new record starts with (fields the form does not ask for). */
  defaults?: Partial<Record<K, string | number | boolean | null>>;
  /** Named actions on one record; who may run each is in `access` under the same name. */
  actions?: Record<string, ActionSpec<K>>;
  /** Which role may do what, and over which records. Missing role = not allowed. */
  access: Partial<Record<CrudAction | (string & {}), Partial<Record<Role, Scope>>>>;
  /**
   * How a subscriber's own records are found. `path` documents it; for resources served by the
   * generic API, `through` names the reference field whose record's owner owns this one (a claim is
   * owned by whoever owns its line); without it, the subscriber who created the record owns it.
   */
  ownership?: { path: string; through?: K };
  source: "backend" | "rtdb";
  audit: boolean;
  /** Generic API only: fields that get a database index (those filtered or sorted on most). */
  indexes?: readonly K[];
  /** Labels in every language, merged into the portal's dictionaries: no file outside the declaration. */
  messages?: { en: Record<string, string>; es: Record<string, string> };
  /** Custom pages replacing one generic view, loaded on demand (keeps the backend free of React). */
  views?: Partial<Record<View, () => Promise<{ default: ViewComponent }>>>;
}

/** Identity function that keeps the literal types of a declaration. */
export function defineResource<S extends z.ZodObject>(definition: ResourceDefinition<S>): ResourceDefinition<S> {
  return definition;
}
