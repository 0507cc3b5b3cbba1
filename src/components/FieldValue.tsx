import { Tag, Typography } from "antd";
import { Link } from "react-router";
import type { FieldSpec } from "../resources/define";
import { translate as t } from "../i18n";
import { formatDataMb, formatDateTime, formatMoney, formatMsisdn, formatQuantity } from "./format";

const STATUS_COLORS: Record<string, string> = {
  active: "green",
  pending: "blue",
  suspended: "orange",
  terminated: "default",
  draft: "default",
  retired: "default",
};

/** Renders one field of a record the way its declaration says (money, number, status, …). */
export function FieldValue({ name, spec, record }: { name: string; spec: FieldSpec | undefined; record: Record<string, any> }) {
  const value = record[name];
  if (value === null || value === undefined) {
    if (spec?.kind === "dataMb") return <>{formatDataMb(null)}</>;
    if (spec?.kind === "quantity") return <>{t("units.unlimited")}</>;
    return <Typography.Text type="secondary">—</Typography.Text>;
  }
  switch (spec?.kind) {
    case "money":
      return <>{formatMoney(value)}</>;
    case "msisdn":
      return <span style={{ whiteSpace: "nowrap" }}>{formatMsisdn(value)}</span>;
    case "dataMb":
      return <>{formatDataMb(value)}</>;
    case "quantity":
      return <>{formatQuantity(value, name === "sms" ? "units.texts" : "units.minutes")}</>;
    case "datetime":
      return <>{formatDateTime(value)}</>;
    case "enum": {
      const label = t(`enums.${name}.${value}`, undefined, String(value));
      return name === "status" ? <Tag color={STATUS_COLORS[value] ?? "default"}>{label}</Tag> : <>{label}</>;
    }
    case "tags":
      return (
        <>
          {(value as string[]).map((v) => (
            <Tag key={v}>{v}</Tag>
          ))}
        </>
      );
    default:
      if (spec?.reference && record[spec.reference.idField]) {
        return <Link to={`/${spec.reference.resource}/show/${record[spec.reference.idField]}`}>{String(value)}</Link>;
      }
      return <>{String(value)}</>;
  }
}
