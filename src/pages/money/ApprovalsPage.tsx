import { useState } from "react";
import { List, useTable } from "@refinedev/antd";
import { useGetIdentity, type HttpError } from "@refinedev/core";
import { Space, Switch, Table, Typography } from "antd";
import { Link } from "react-router";
import { approvalsResource, type Approval } from "../../resources/approvals";
import type { SessionUser } from "../../providers/session";
import { translate as t } from "../../i18n";
import { FieldValue } from "../../components/FieldValue";
import { RecordActions } from "../../components/actions/RecordActions";

/**
 * The two-person queue (issue 12): admins see the operator's requests, pending first and oldest
 * first, and approve or reject each with a reason; agents follow their own. A request you made
 * yourself shows who must decide it instead of the buttons (the server refuses it too).
 */
export default function ApprovalsPage() {
  const { data: me } = useGetIdentity<SessionUser>();
  const [pendingOnly, setPendingOnly] = useState(true);
  const { tableProps, setFilters } = useTable<Approval, HttpError>({
    resource: "approvals",
    syncWithLocation: false,
    sorters: { initial: [{ field: "createdAt", order: "asc" }] },
    filters: { initial: [{ field: "status", operator: "eq", value: "pending" }] },
    pagination: { pageSize: 20 },
  });
  const showPendingOnly = (on: boolean) => {
    setPendingOnly(on);
    setFilters([{ field: "status", operator: "eq", value: on ? "pending" : undefined }], "replace");
  };
  const spec = approvalsResource.fields;

  return (
    <List title={t(approvalsResource.label)}>
      <Space style={{ marginBottom: 12 }}>
        <Switch id="approvals-pending-only" checked={pendingOnly} onChange={showPendingOnly} />
        <label htmlFor="approvals-pending-only">{t("resources.approvals.pendingOnly")}</label>
      </Space>
      <Table<Approval>
        {...tableProps}
        rowKey="id"
        scroll={{ x: "max-content" }}
        columns={[
          ...approvalsResource.list.columns.map((name) => ({
            key: name,
            dataIndex: name,
            title: t(spec[name]?.label ?? name),
            sorter: approvalsResource.list.sortable.includes(name),
            render: (_: unknown, record: Approval) =>
              name === "accountName" ? (
                <Link to={`/accounts/show/${record.accountId}`}>{record.accountName}</Link>
              ) : (
                <FieldValue name={name} spec={spec[name]} record={record} />
              ),
          })),
          {
            key: "actions",
            title: t("list.actions"),
            render: (_: unknown, record: Approval) =>
              record.status === "pending" && record.requestedBy === me?.uid ? (
                <Typography.Text type="secondary">{t("resources.approvals.notYours")}</Typography.Text>
              ) : (
                <Space wrap>
                  <RecordActions resource={approvalsResource} record={record} />
                </Space>
              ),
          },
        ]}
      />
    </List>
  );
}
