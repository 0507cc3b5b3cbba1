import { Button, Table, Typography } from "antd";
import { useId, useState } from "react";
import type { AuditEvent } from "../../resources/auditEvents";
import { translate as t } from "../../i18n";
import { fieldChanges, rawJson, type FieldChange } from "../../components/auditWords";

/**
 * One audit row opened: the fields it changed as "label: before → after" in words, and the raw
 * before/after JSON only behind a toggle (masked as the page is), for whoever needs the exact data.
 */
export function AuditEventDetails({ event }: { event: AuditEvent }) {
  const [raw, setRaw] = useState(false);
  const rawId = useId();
  const changes = fieldChanges(event);
  return (
    <div data-testid="audit-details">
      {changes.length ? (
        <Table<FieldChange>
          size="small"
          rowKey="field"
          pagination={false}
          style={{ maxWidth: 840, marginBottom: 8 }}
          dataSource={changes}
          columns={[
            { title: t("audit.field"), dataIndex: "label" },
            { title: t("care.audit.before"), dataIndex: "before" },
            { title: t("care.audit.after"), dataIndex: "after" },
          ]}
        />
      ) : (
        <Typography.Paragraph type="secondary">{t("audit.noChanges")}</Typography.Paragraph>
      )}
      <Button size="small" aria-expanded={raw} aria-controls={rawId} onClick={() => setRaw(!raw)}>
        {t(raw ? "audit.hideRaw" : "audit.showRaw")}
      </Button>
      {raw && (
        <pre id={rawId} style={{ margin: "8px 0 0", fontSize: 12, whiteSpace: "pre-wrap" }}>
          {rawJson(event)}
        </pre>
      )}
    </div>
  );
}
