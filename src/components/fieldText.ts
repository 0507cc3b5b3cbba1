import type { FieldSpec } from "../resources/define";
import { translate as t } from "../i18n";
import type { Plan } from "../resources/plans";
import type { CatalogTranslations } from "../resources/catalogTranslations";
import { overageText } from "./plans/overageWords";
import { formatDataMb, formatDate, formatDateTime, formatMoney, formatMsisdn, formatQuantity } from "./format";

/** All but the last 4 characters hidden: "•••• 0101". */
export const maskTail = (text: string) => (text.length > 4 ? `•••• ${text.slice(-4)}` : text);

/**
 * One field of a record as plain text, the way its declaration says (money, dates, enum labels in the
 * viewer's language). Screens and CSV exports share it, so a spreadsheet reads like the page.
 */
export function fieldText(name: string, spec: FieldSpec | undefined, record: Record<string, any>): string {
  const value = record[name];
  if (value === null || value === undefined) {
    if (spec?.kind === "dataMb") return formatDataMb(null);
    if (spec?.kind === "quantity") return t("units.unlimited");
    if (spec?.kind === "overage") return overageText(record as Plan);
    return "";
  }
  switch (spec?.kind) {
    case "money":
      return formatMoney(value);
    case "msisdn":
      return formatMsisdn(value);
    case "dataMb":
      return formatDataMb(value);
    case "quantity":
      return formatQuantity(value, name === "sms" ? "units.texts" : "units.minutes");
    case "datetime":
      return formatDateTime(value);
    case "date":
      return formatDate(value);
    case "boolean":
      return t(value ? "common.yes" : "common.no");
    case "enum":
      return t(`${spec.labels ?? `enums.${name}`}.${value}`, undefined, String(value));
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
    case "files":
      return (value as string[]).length ? String((value as string[]).length) : "";
    default:
      return spec?.masked ? maskTail(String(value)) : String(value);
  }
}
