import { Link } from "react-router";
import type { Subscriber } from "../../../resources/subscribers";
import type { Ticket } from "../../../resources/tickets";
import { translate as t } from "../../../i18n";
import { formatDateTime } from "../../../components/format";
import { StatusTag, toneOfStatus } from "../../../components/StatusTag";
import { SlaTag } from "../SlaTag";
import { useNow } from "../useNow";
import { PagedSection } from "./PagedSection";

/** The account's help requests, newest first, each opening its conversation. */
export function TicketsSection({ subscriber }: { subscriber: Subscriber }) {
  const now = useNow();
  return (
    <PagedSection<Ticket>
      source={{
        resource: "tickets",
        filters: [{ field: "accountId", operator: "eq", value: subscriber.id }],
        sorters: [{ field: "createdAt", order: "desc" }],
      }}
      columns={[
        {
          title: t("fields.subject"),
          dataIndex: "subject",
          render: (subject: string, ticket) => <Link to={`/tickets/show/${ticket.id}`}>{subject}</Link>,
        },
        {
          title: t("fields.status"),
          dataIndex: "status",
          render: (s: string) => <StatusTag tone={toneOfStatus(s)}>{t(`enums.ticketStatus.${s}`)}</StatusTag>,
        },
        { title: t("fields.priority"), dataIndex: "priority", render: (p: string) => t(`enums.ticketPriority.${p}`) },
        {
          title: t("care.queue.sla"),
          key: "sla",
          render: (_: unknown, ticket) => <SlaTag ticket={ticket} now={now} />,
        },
        { title: t("fields.lastMessageAt"), dataIndex: "lastMessageAt", render: (at: string) => formatDateTime(at) },
      ]}
    />
  );
}
