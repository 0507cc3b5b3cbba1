import { useList } from "@refinedev/core";
import { Card, Segmented, Space, Table, Typography } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import { OPEN_TICKET_STATUSES, type Ticket } from "../../resources/tickets";
import { translate as t } from "../../i18n";
import { formatDateTime } from "../../components/format";
import { StatusTag, toneOfStatus } from "../../components/StatusTag";
import { SlaTag } from "./SlaTag";
import { useNow } from "./useNow";

const PAGE_SIZE = 20;
type View = "open" | "all";

/** Care's queue: open tickets, most urgent first, then the oldest; SLA colours tick on their own. */
export function TicketQueue() {
  const [view, setView] = useState<View>("open");
  const [page, setPage] = useState(1);
  const now = useNow();
  const { result, query } = useList<Ticket>({
    resource: "tickets",
    filters: view === "open" ? [{ field: "status", operator: "in", value: [...OPEN_TICKET_STATUSES] }] : [],
    sorters:
      view === "open"
        ? [
            { field: "priority", order: "desc" },
            { field: "createdAt", order: "asc" },
          ]
        : [{ field: "createdAt", order: "desc" }],
    pagination: { currentPage: page, pageSize: PAGE_SIZE },
  });
  return (
    <Card
      title={
        <Typography.Title level={1} style={{ margin: 0, fontSize: 20 }}>
          {t("care.queue.title")}
        </Typography.Title>
      }
      extra={
        <Segmented<View>
          aria-label={t("care.queue.view")}
          value={view}
          onChange={(value) => {
            setView(value);
            setPage(1);
          }}
          options={[
            { value: "open", label: t("care.queue.open") },
            { value: "all", label: t("care.queue.all") },
          ]}
        />
      }
    >
      <Table<Ticket>
        rowKey="id"
        loading={query.isLoading}
        dataSource={result?.data ?? []}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: result?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          {
            title: t("care.queue.sla"),
            key: "sla",
            render: (_: unknown, ticket) => <SlaTag ticket={ticket} now={now} />,
          },
          {
            title: t("fields.subject"),
            dataIndex: "subject",
            render: (subject: string, ticket) => (
              <Link to={`/tickets/show/${ticket.id}`} data-testid="ticket-link">
                {subject}
              </Link>
            ),
          },
          {
            title: t("fields.accountName"),
            dataIndex: "accountName",
            render: (name: string, ticket) => <Link to={`/subscribers/show/${ticket.accountId}`}>{name}</Link>,
          },
          {
            title: t("fields.ticketCategory"),
            dataIndex: "category",
            render: (c: string) => t(`enums.ticketCategory.${c}`),
          },
          { title: t("fields.priority"), dataIndex: "priority", render: (p: string) => t(`enums.ticketPriority.${p}`) },
          {
            title: t("fields.status"),
            dataIndex: "status",
            render: (s: string) => <StatusTag tone={toneOfStatus(s)}>{t(`enums.ticketStatus.${s}`)}</StatusTag>,
          },
          {
            title: t("fields.assigned"),
            dataIndex: "assigned",
            render: (a: boolean) => (a ? t("care.yes") : t("care.no")),
          },
          {
            title: t("fields.createdAt"),
            dataIndex: "createdAt",
            render: (at: string) => <Space>{formatDateTime(at)}</Space>,
          },
        ]}
      />
    </Card>
  );
}
