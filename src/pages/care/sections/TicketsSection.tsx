import { useList } from "@refinedev/core";
import { Table } from "antd";
import { useState } from "react";
import { Link } from "react-router";
import type { Subscriber } from "../../../resources/subscribers";
import type { Ticket } from "../../../resources/tickets";
import { translate as t } from "../../../i18n";
import { formatDateTime } from "../../../components/format";
import { StatusTag, toneOfStatus } from "../../../components/StatusTag";
import { SlaTag } from "../SlaTag";
import { useNow } from "../useNow";
import { SECTION_PAGE_SIZE } from "./types";

/** The account's help requests, newest first, each opening its conversation. */
export function TicketsSection({ subscriber }: { subscriber: Subscriber }) {
  const [page, setPage] = useState(1);
  const now = useNow();
  const { result, query } = useList<Ticket>({
    resource: "tickets",
    filters: [{ field: "accountId", operator: "eq", value: subscriber.id }],
    sorters: [{ field: "createdAt", order: "desc" }],
    pagination: { currentPage: page, pageSize: SECTION_PAGE_SIZE },
  });
  return (
    <Table<Ticket>
      rowKey="id"
      size="small"
      loading={query.isLoading}
      dataSource={result?.data ?? []}
      pagination={{ current: page, pageSize: SECTION_PAGE_SIZE, total: result?.total ?? 0, onChange: setPage, hideOnSinglePage: true }}
      columns={[
        { title: t("fields.subject"), dataIndex: "subject", render: (subject: string, ticket) => <Link to={`/tickets/show/${ticket.id}`}>{subject}</Link> },
        { title: t("fields.status"), dataIndex: "status", render: (s: string) => <StatusTag tone={toneOfStatus(s)}>{t(`enums.ticketStatus.${s}`)}</StatusTag> },
        { title: t("fields.priority"), dataIndex: "priority", render: (p: string) => t(`enums.ticketPriority.${p}`) },
        { title: t("care.queue.sla"), key: "sla", render: (_: unknown, ticket) => <SlaTag ticket={ticket} now={now} /> },
        { title: t("fields.lastMessageAt"), dataIndex: "lastMessageAt", render: (at: string) => formatDateTime(at) },
      ]}
    />
  );
}
