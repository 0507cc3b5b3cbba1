import { useOne } from "@refinedev/core";
import { Tag, Timeline, Typography } from "antd";
import { Link } from "react-router";
import type { FieldSpec } from "../resources/define";
import { findResource } from "../resources";
import { fieldText, recordTitleText } from "./fieldText";
import { useReferenced } from "./ReferencedRecords";
import { formatDateTime } from "./format";
import { translate as t } from "../i18n";
import { StatusTag, toneOfStatus } from "./StatusTag";
import { FileDownloadButton } from "./FileDownloadButton";

/** A record of another resource, shown by its title and linked to its page (one cached fetch per id). */
function ReferenceValue({ resource, id }: { resource: string; id: string }) {
  const target = findResource(resource);
  // A list page fetched every referenced record at once (ReferencedRecords); a record page asks for its own.
  const known = useReferenced(resource, id);
  const { result, query } = useOne<Record<string, unknown>>({
    resource,
    id,
    queryOptions: { enabled: Boolean(target) && !known, retry: false },
  });
  const record = known ?? result;
  const title = target && record ? recordTitleText(target, record) : query.isLoading && !known ? "…" : id.slice(0, 8);
  return <Link to={`/${resource}/show/${id}`}>{title}</Link>;
}

/** Renders one field of a record the way its declaration says (money, number, status, link, …). */
export function FieldValue({
  name,
  spec,
  record,
}: {
  name: string;
  spec: FieldSpec | undefined;
  record: Record<string, unknown>;
}) {
  const value = record[name];
  const text = fieldText(name, spec, record);
  if (text === "") return <Typography.Text type="secondary">—</Typography.Text>;
  switch (spec?.kind) {
    case "msisdn":
      return <span style={{ whiteSpace: "nowrap" }}>{text}</span>;
    case "enum":
      return name === "status" || name === "state" ? (
        <StatusTag tone={toneOfStatus(value as string)}>{text}</StatusTag>
      ) : (
        <>{text}</>
      );
    case "timeline":
      return (
        <Timeline
          style={{ marginTop: 8, marginBottom: -16 }}
          items={(value as { state: string; at: string; byRole: string; note: string | null }[]).map((step, i) => ({
            key: i,
            children: (
              <>
                <StatusTag tone={toneOfStatus(step.state)}>
                  {t(`enums.orderState.${step.state}`, undefined, step.state)}
                </StatusTag>
                <Typography.Text type="secondary">
                  {formatDateTime(step.at)} · {t(`notifications.by.${step.byRole}`, undefined, step.byRole)}
                </Typography.Text>
                {/* A note is the system's words (a key: why a port-in was refused) or a person's text. */}
                {step.note && <div>{t(step.note, undefined, step.note)}</div>}
              </>
            ),
          }))}
        />
      );
    case "tags":
      return (
        <>
          {(value as string[]).map((v) => (
            <Tag key={v}>{v}</Tag>
          ))}
        </>
      );
    case "translations":
      // The catalog's Spanish words, marked as Spanish on an English page (screen readers, the language walk).
      return <span lang="es">{text}</span>;
    case "posted":
      return <>{text}</>;
    case "longText":
      return <span style={{ whiteSpace: "pre-wrap" }}>{text}</span>;
    case "reference":
      // A stored file has no page of its own: it is downloaded, named after what the field holds.
      if (spec.reference?.resource === "files")
        return <FileDownloadButton fileId={String(value)} text={t(spec.label)} />;
      return spec.reference ? <ReferenceValue resource={spec.reference.resource} id={String(value)} /> : <>{text}</>;
    default: {
      const idField = spec?.reference?.idField;
      const targetId = idField ? (record[idField] as string | undefined) : undefined; // the referenced record's id
      if (spec?.reference && targetId) return <Link to={`/${spec.reference.resource}/show/${targetId}`}>{text}</Link>;
      return <>{text}</>;
    }
  }
}
