import { useList } from "@refinedev/core";
import { Table, Typography } from "antd";
import { useState } from "react";
import type { StaffRead } from "../../resources/staffReads";
import { findResource } from "../../resources";
import { translate as t } from "../../i18n";
import { formatDateTime } from "../../components/format";

const PAGE_SIZE = 25;

/** What was read, as the portal names it: the resource's label, or the 360 section's title ("Sign-in methods"). */
export function staffReadSectionText(section: string): string {
  const resource = findResource(section);
  if (resource) return t(resource.label);
  return t(`care.sections.${section}`, undefined, section);
}

/**
 * The access log for admins (issue 27), the audit viewer's second tab: who of the staff read which
 * subscriber's what, newest first, by name (GET /staff-reads).
 */
export function StaffReadsTable() {
  const [page, setPage] = useState(1);
  const { result, query } = useList<StaffRead>({
    resource: "staff-reads",
    sorters: [{ field: "readAt", order: "desc" }],
    pagination: { currentPage: page, pageSize: PAGE_SIZE },
  });
  return (
    <Table<StaffRead>
      rowKey="id"
      size="small"
      loading={query.isFetching}
      dataSource={result?.data ?? []}
      pagination={{
        current: page,
        pageSize: PAGE_SIZE,
        total: result?.total ?? 0,
        onChange: setPage,
        showSizeChanger: false,
      }}
      columns={[
        { title: t("fields.readAt"), dataIndex: "readAt", render: (at: string) => formatDateTime(at) },
        {
          title: t("fields.staffMember"),
          key: "staff",
          render: (_: unknown, r: StaffRead) => (
            <>
              <div>{r.staffName ?? t("audit.unknownPerson", { uid: r.staffUid })}</div>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t(`roles.${r.staffRole}`)}
              </Typography.Text>
            </>
          ),
        },
        {
          title: t("fields.subscriber"),
          key: "subscriber",
          render: (_: unknown, r: StaffRead) => r.subscriberName ?? t("audit.unknownPerson", { uid: r.subscriberUid }),
        },
        { title: t("fields.dataSection"), dataIndex: "section", render: (s: string) => staffReadSectionText(s) },
      ]}
    />
  );
}
