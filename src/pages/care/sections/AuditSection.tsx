import { useList } from "@refinedev/core";
import { Table } from "antd";
import { useState } from "react";
import type { AuditEvent } from "../../../resources/auditEvents";
import type { Line } from "../../../resources/lines";
import type { Subscriber } from "../../../resources/subscribers";
import { translate as t } from "../../../i18n";
import { formatDateTime } from "../../../components/format";
import { SECTION_PAGE_SIZE } from "./types";

/** Every audited write on the account and its lines, newest first: who (by role), what, why. */
export function AuditSection({ subscriber }: { subscriber: Subscriber }) {
  const [page, setPage] = useState(1);
  const lines = useList<Line>({
    resource: "lines",
    filters: [{ field: "accountId", operator: "eq", value: subscriber.id }],
    pagination: { currentPage: 1, pageSize: 100 },
  });
  const targets = [subscriber.id, ...(lines.result?.data ?? []).map((l) => l.id)];
  const { result, query } = useList<AuditEvent>({
    resource: "audit-events",
    filters: [{ field: "targetId", operator: "in", value: targets }],
    sorters: [{ field: "createdAt", order: "desc" }],
    pagination: { currentPage: page, pageSize: SECTION_PAGE_SIZE },
    queryOptions: { enabled: lines.query.isSuccess },
  });
  return (
    <Table<AuditEvent>
      rowKey="id"
      size="small"
      loading={lines.query.isLoading || query.isLoading}
      dataSource={result?.data ?? []}
      pagination={{ current: page, pageSize: SECTION_PAGE_SIZE, total: result?.total ?? 0, onChange: setPage, hideOnSinglePage: true }}
      columns={[
        { title: t("fields.createdAt"), dataIndex: "createdAt", render: (at: string) => formatDateTime(at) },
        { title: t("fields.action"), dataIndex: "action" },
        { title: t("fields.role"), dataIndex: "actorRole", render: (role: string | null) => (role ? t(`roles.${role}`) : "—") },
        { title: t("fields.actor"), dataIndex: "actorUid" },
        { title: t("fields.reason"), dataIndex: "reason", render: (reason: string | null) => reason ?? "—" },
      ]}
    />
  );
}
