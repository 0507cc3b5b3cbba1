import type { FieldSpec, ResourceDefinition } from "../resources/define";
import { translate as t } from "../i18n";
import { catalogName } from "../i18n/catalogText";
import type { Money } from "../resources/common";
import type { Plan } from "../resources/plans";
import type { CatalogTranslations } from "../resources/catalogTranslations";
import { postedText } from "./postedWords";
import { overageText } from "./plans/overageWords";
import { formatDataMb, formatDate, formatDateTime, formatMoney, formatMsisdn, formatQuantity } from "./format";

/**
 * A record's title in words: its `recordTitle` field, and for a catalog item (a plan, a pass: a
 * declaration with a `translations` field) its name in the page's language, as the cards show it.
 */
export function recordTitleText(
  resource: Pick<ResourceDefinition, "recordTitle" | "fields">,
  record: Record<string, unknown>,
): string {
  const title = resource.recordTitle;
  const translated = Object.values(resource.fields).some((field) => field?.kind === "translations");
  if (title === "name" && translated && typeof record.name === "string")
    return catalogName(record as unknown as Parameters<typeof catalogName>[0]);
  return fieldText(title, resource.fields[title], record);
}

/** All but the last 4 characters hidden: "•••• 0101". */
export const maskTail = (text: string) => (text.length > 4 ? `•••• ${text.slice(-4)}` : text);

/**
 * One field of a record as plain text, the way its declaration says (money, dates, enum labels in the
 * viewer's language). Screens and CSV exports share it, so a spreadsheet reads like the page.
 */
export function fieldText(name: string, spec: FieldSpec | undefined, record: Record<string, unknown>): string {
  // The declaration says what the value is (the API answers by the same declarations).
  const value = record[name];
  if (value === null || value === undefined) {
    if (spec?.kind === "dataMb") return formatDataMb(null);
    if (spec?.kind === "quantity") return t("units.unlimited");
    if (spec?.kind === "overage") return overageText(record as Plan);
    return "";
  }
  switch (spec?.kind) {
    case "money":
      return formatMoney(value as Money);
    case "msisdn":
      return formatMsisdn(value as string);
    case "dataMb":
      return formatDataMb(value as number);
    case "quantity":
      return formatQuantity(value as number, name === "sms" ? "units.texts" : "units.minutes");
    case "datetime":
      return formatDateTime(value as string);
    case "date":
      return formatDate(value as string);
    case "boolean":
      return t(value ? "common.yes" : "common.no");
    case "enum": {
      const option = value as string; // an enum holds one of its declared options
      return t(`${spec.labels ?? `enums.${name}`}.${option}`, undefined, option);
    }
    case "timeline":
      return (value as { state: string; at: string }[])
        .map((step) => `${step.state} ${formatDateTime(step.at)}`)
        .join("; ");
    case "overage":
      return overageText(record as Plan);
    case "tags":
      return (value as string[]).join(", ");
    case "translations": {
      // Staff read what Spanish-speaking subscribers see: the name, then the features.
      const es = (value as CatalogTranslations).es;
      return [es?.name, es?.features?.join(", ")].filter(Boolean).join(" · ");
    }
    case "posted":
      return postedText(value as string);
    case "files":
      return (value as string[]).length ? String((value as string[]).length) : "";
    default: {
      const plain = value as string | number | boolean; // the other kinds hold text, numbers and yes/no
      return spec?.masked ? maskTail(String(plain)) : String(plain);
    }
  }
}
