import { useList, type CrudFilter } from "@refinedev/core";
import { Button, Card, DatePicker, Form, Input, Select, Space, Table, Tabs, Typography } from "antd";
import type { Dayjs } from "dayjs";
import { useState } from "react";
import type { AuditEvent } from "../../resources/auditEvents";
import { resources } from "../../resources";
import { ROLES } from "../../resources/define";
import { translate as t } from "../../i18n";
import { formatDateTime } from "../../components/format";
import { useCsvExport } from "../../components/useCsvExport";
import { actionText, actorText, rawSide, targetText } from "../../components/auditWords";
import { AuditEventDetails } from "./AuditEventDetails";
import { StaffReadsTable } from "./StaffReadsTable";
import { en } from "../../i18n/en";

const PAGE_SIZE = 25;

interface AuditFilters {
  actorUid?: string;
  actorRole?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  period?: [Dayjs | null, Dayjs | null] | null;
}

/** The form's values as the list contract's filters (empty ones left out). */
function toFilters(values: AuditFilters): CrudFilter[] {
  const filters: CrudFilter[] = [];
  const text = (v?: string) => v?.trim() || undefined;
  if (text(values.actorUid)) filters.push({ field: "actorUid", operator: "eq", value: text(values.actorUid) });
  if (values.actorRole) filters.push({ field: "actorRole", operator: "eq", value: values.actorRole });
  if (text(values.action)) filters.push({ field: "action", operator: "startswith", value: text(values.action) });
  if (values.targetType) filters.push({ field: "targetType", operator: "eq", value: values.targetType });
  if (text(values.targetId)) filters.push({ field: "targetId", operator: "eq", value: text(values.targetId) });
  const [from, to] = values.period ?? [];
  if (from) filters.push({ field: "createdAt", operator: "gte", value: from.startOf("day").toISOString() });
  if (to) filters.push({ field: "createdAt", operator: "lte", value: to.endOf("day").toISOString() });
  return filters;
}

/**
 * The action filter in words, grouped by the record they act on: each group starts with all of its
 * actions (the "lines." prefix), then each one ("lines.suspend").
 */
function actionOptions() {
  const byType = new Map<string, string[]>();
  for (const key of Object.keys(en)) {
    if (!key.startsWith("audit.actions.")) continue;
    const action = key.slice("audit.actions.".length);
    const type = action.slice(0, action.lastIndexOf("."));
    byType.set(type, [...(byType.get(type) ?? []), action]);
  }
  return [...byType].map(([type, actions]) => {
    const noun = targetText({ targetType: type, targetTitle: null });
    return {
      label: noun,
      title: noun,
      options: [
        { value: `${type}.`, label: `${noun}: ${t("audit.allActions")}` },
        ...actions.map((action) => ({ value: action, label: `${noun}: ${actionText(action)}` })),
      ],
    };
  });
}

/** The actor by name, with their email and role beneath. */
function Who({ event }: { event: AuditEvent }) {
  const role = event.actorRole ? t(`roles.${event.actorRole}`, undefined, event.actorRole) : null;
  // The system's row says "System" already; a person's gets their email and role.
  const detail = [event.actorEmail, event.actorUid ? role : null].filter(Boolean).join(" · ");
  return (
    <>
      <div>{actorText(event)}</div>
      {detail && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {detail}
        </Typography.Text>
      )}
    </>
  );
}

/**
 * The operator's audit trail for admins: filter by who (user id or role), what (action, from its
 * start: "lines." is every line action), which record, and when; export exactly the filtered rows as CSV.
 * A second tab lists the staff's reads of subscribers' data (the access log, issue 27).
 */
export default function AuditViewerPage() {
  const [form] = Form.useForm<AuditFilters>();
  const [filters, setFilters] = useState<CrudFilter[]>([]);
  const [page, setPage] = useState(1);
  const sorters = [{ field: "createdAt", order: "desc" as const }];
  const { result, query } = useList<AuditEvent>({
    resource: "audit-events",
    filters,
    sorters,
    pagination: { currentPage: page, pageSize: PAGE_SIZE },
  });
  const { triggerExport, isLoading: exporting } = useCsvExport<AuditEvent>({
    resource: "audit-events",
    filters,
    sorters,
    pageSize: 100,
    maxItemCount: 50_000,
    filename: `audit-${new Date().toISOString().slice(0, 10)}`,
    // The words of the page, with the ids beside them for whoever joins the file to other data.
    mapData: (e) => ({
      [t("fields.createdAt")]: e.createdAt,
      [t("audit.who")]: actorText(e),
      [t("signIn.email")]: e.actorEmail ?? "",
      [t("fields.role")]: e.actorRole ? t(`roles.${e.actorRole}`, undefined, e.actorRole) : "",
      [t("audit.what")]: actionText(e.action),
      [t("audit.record")]: targetText(e),
      [t("fields.reason")]: e.reason ?? "",
      [t("fields.action")]: e.action,
      [t("fields.actor")]: e.actorUid ?? "",
      [t("fields.targetType")]: e.targetType,
      [t("fields.targetId")]: e.targetId ?? "",
      [t("fields.requestId")]: e.requestId ?? "",
      [t("care.audit.before")]: rawSide(e, e.before),
      [t("care.audit.after")]: rawSide(e, e.after),
    }),
  });
  const apply = (values: AuditFilters) => {
    setPage(1);
    setFilters(toFilters(values));
  };

  return (
    <Card
      title={
        <Typography.Title level={1} style={{ margin: 0, fontSize: 20 }}>
          {t("resources.auditEvents.label")}
        </Typography.Title>
      }
      extra={
        <Button onClick={() => void triggerExport()} loading={exporting}>
          {t("list.export")}
        </Button>
      }
    >
      <Tabs
        items={[
          {
            key: "changes",
            label: t("audit.tabs.changes"),
            children: (
              <>
                <Form<AuditFilters>
                  noValidate
                  form={form}
                  layout="inline"
                  onFinish={apply}
                  style={{ marginBottom: 16, rowGap: 8 }}
                >
                  <Form.Item name="actorUid" label={t("fields.actor")}>
                    <Input allowClear style={{ width: 160 }} />
                  </Form.Item>
                  <Form.Item name="actorRole" label={t("fields.role")}>
                    <Select
                      allowClear
                      style={{ width: 130 }}
                      aria-label={t("fields.role")}
                      options={ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
                    />
                  </Form.Item>
                  <Form.Item name="action" label={t("audit.what")}>
                    <Select
                      allowClear
                      showSearch
                      optionFilterProp="label"
                      style={{ width: 240 }}
                      aria-label={t("audit.what")}
                      options={actionOptions()}
                    />
                  </Form.Item>
                  <Form.Item name="targetType" label={t("fields.targetType")}>
                    <Select
                      allowClear
                      style={{ width: 150 }}
                      aria-label={t("fields.targetType")}
                      options={resources.map((r) => ({ value: r.name, label: t(r.label) }))}
                    />
                  </Form.Item>
                  <Form.Item name="targetId" label={t("fields.targetId")}>
                    <Input allowClear style={{ width: 200 }} />
                  </Form.Item>
                  <Form.Item name="period" label={t("care.audit.period")}>
                    <DatePicker.RangePicker allowEmpty={[true, true]} />
                  </Form.Item>
                  <Form.Item>
                    <Space>
                      <Button type="primary" htmlType="submit">
                        {t("care.audit.apply")}
                      </Button>
                      <Button
                        onClick={() => {
                          form.resetFields();
                          apply({});
                        }}
                      >
                        {t("care.audit.clear")}
                      </Button>
                    </Space>
                  </Form.Item>
                </Form>
                <Table<AuditEvent>
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
                  expandable={{ expandedRowRender: (e) => <AuditEventDetails event={e} /> }}
                  columns={[
                    {
                      title: t("fields.createdAt"),
                      dataIndex: "createdAt",
                      render: (at: string) => formatDateTime(at),
                    },
                    { title: t("audit.who"), key: "who", render: (_: unknown, e: AuditEvent) => <Who event={e} /> },
                    { title: t("audit.what"), dataIndex: "action", render: (action: string) => actionText(action) },
                    { title: t("audit.record"), key: "record", render: (_: unknown, e: AuditEvent) => targetText(e) },
                    { title: t("fields.reason"), dataIndex: "reason", render: (r: string | null) => r ?? "—" },
                  ]}
                />
              </>
            ),
          },
          { key: "reads", label: t("resources.staffReads.label"), children: <StaffReadsTable /> },
        ]}
      />
    </Card>
  );
}
