import type { Order } from "../../../resources/orders";
import type { Subscriber } from "../../../resources/subscribers";
import { translate as t } from "../../../i18n";
import { formatDateTime, formatMsisdn } from "../../../components/format";
import { StatusTag, toneOfStatus } from "../../../components/StatusTag";
import { PagedSection } from "./PagedSection";

/** The account's orders, newest first: what changed on its lines, who asked (by role) and why. */
export function OrdersSection({ subscriber }: { subscriber: Subscriber }) {
  return (
    <PagedSection<Order>
      source={{
        resource: "orders",
        filters: [{ field: "accountId", operator: "eq", value: subscriber.id }],
        sorters: [{ field: "createdAt", order: "desc" }],
      }}
      columns={[
        { title: t("fields.createdAt"), dataIndex: "createdAt", render: (at: string) => formatDateTime(at) },
        { title: t("fields.orderType"), dataIndex: "type", render: (type: string) => t(`enums.orderType.${type}`) },
        {
          title: t("fields.msisdn"),
          dataIndex: "msisdn",
          render: (msisdn: string | null) => (msisdn ? formatMsisdn(msisdn) : "—"),
        },
        {
          title: t("fields.orderState"),
          dataIndex: "state",
          render: (state: string) => <StatusTag tone={toneOfStatus(state)}>{t(`enums.orderState.${state}`)}</StatusTag>,
        },
        { title: t("fields.requestedBy"), dataIndex: "requestedByRole", render: (role: string) => t(`roles.${role}`) },
        { title: t("fields.reason"), dataIndex: "reason", render: (reason: string | null) => reason ?? "—" },
      ]}
    />
  );
}
