import { useOne } from "@refinedev/core";
import { Tag, Typography } from "antd";
import { Link } from "react-router";
import type { FieldSpec } from "../resources/define";
import { findResource } from "../resources";
import { fieldText } from "./fieldText";
import { StatusTag, toneOfStatus } from "./StatusTag";

/** A record of another resource, shown by its title and linked to its page (one cached fetch per id). */
function ReferenceValue({ resource, id }: { resource: string; id: string }) {
  const target = findResource(resource);
  const { result, query } = useOne<Record<string, any>>({ resource, id, queryOptions: { enabled: Boolean(target), retry: false } });
  const title = target && result ? fieldText(target.recordTitle, target.fields[target.recordTitle], result) : query.isLoading ? "…" : id.slice(0, 8);
  return <Link to={`/${resource}/show/${id}`}>{title}</Link>;
}

/** Renders one field of a record the way its declaration says (money, number, status, link, …). */
export function FieldValue({ name, spec, record }: { name: string; spec: FieldSpec | undefined; record: Record<string, any> }) {
  const value = record[name];
  const text = fieldText(name, spec, record);
  if (text === "") return <Typography.Text type="secondary">—</Typography.Text>;
  switch (spec?.kind) {
    case "msisdn":
      return <span style={{ whiteSpace: "nowrap" }}>{text}</span>;
    case "enum":
      return name === "status" ? <StatusTag tone={toneOfStatus(value)}>{text}</StatusTag> : <>{text}</>;
    case "tags":
      return (
        <>
          {(value as string[]).map((v) => (
            <Tag key={v}>{v}</Tag>
          ))}
        </>
      );
    case "longText":
      return <span style={{ whiteSpace: "pre-wrap" }}>{text}</span>;
    case "reference":
      return spec.reference ? <ReferenceValue resource={spec.reference.resource} id={String(value)} /> : <>{text}</>;
    default: {
      const idField = spec?.reference?.idField;
      if (spec?.reference && idField && record[idField]) return <Link to={`/${spec.reference.resource}/show/${record[idField]}`}>{text}</Link>;
      return <>{text}</>;
    }
  }
}
