import type { Rule } from "antd/es/form";
import { z } from "zod";
import type { ResourceDefinition } from "../resources/define";
import { getLocale, translate as t } from "../i18n";
import { issueText } from "../i18n/issueText";

/**
 * Whether the schema lets the field be left out or empty (optional, nullable, or a list that may be
 * empty: a plan with no features listed; antd's "required" would refuse an empty list).
 */
function acceptsEmpty(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success || schema.safeParse(null).success || schema.safeParse([]).success;
}

/**
 * The antd rules of one input checked by a zod schema: the same check the server runs, so a mistake
 * is shown at the field before the request is sent. Empty optional fields are sent as null (or left
 * out), which the schema must accept.
 */
export function zodRules(schema: z.ZodType, label: string): Rule[] {
  const optional = acceptsEmpty(schema);
  return [
    { required: !optional, message: t("form.required", { field: label }) },
    {
      validator: (_rule, value) => {
        if (value === undefined || value === null || value === "") return Promise.resolve(); // "required" speaks for empty values
        const result = schema.safeParse(value);
        if (result.success) return Promise.resolve();
        const issue = result.error.issues[0];
        return Promise.reject(new Error(`${label}: ${issue ? issueText(issue, getLocale()) : t("form.invalid")}`));
      },
    },
  ];
}

/** The schema a declared form checks one field with: its write rule when the declaration has one, else the record's. */
function fieldSchema(resource: ResourceDefinition, field: string): z.ZodType | undefined {
  return (
    (resource.writeRules as Record<string, z.ZodType> | undefined)?.[field] ??
    (resource.schema.shape as Record<string, z.ZodType>)[field]
  );
}

/** Whether a field takes null as a value of its own: for a data allowance, unlimited. */
export function acceptsNull(resource: ResourceDefinition, field: string): boolean {
  return fieldSchema(resource, field)?.safeParse(null).success ?? false;
}

/**
 * A data allowance left blank is refused even where null (unlimited) is valid: unlimited is chosen
 * with its own checkbox (DataAllowanceInput), which gives null; a blank amount gives undefined.
 */
const dataMbChosen: Rule = {
  validator: (_rule, value) =>
    value === undefined || value === "" ? Promise.reject(new Error(t("dataInput.blank"))) : Promise.resolve(),
};

/** The rules of one field of a declared form: its write rule when the declaration has one, else the record's schema. */
export function fieldRules(resource: ResourceDefinition, field: string): Rule[] {
  const schema = fieldSchema(resource, field);
  if (!schema) return [];
  const rules = zodRules(schema, t(resource.fields[field]?.label ?? field));
  return resource.fields[field]?.kind === "dataMb" && acceptsNull(resource, field) ? [dataMbChosen, ...rules] : rules;
}
