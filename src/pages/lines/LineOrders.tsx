import { useList } from "@refinedev/core";
import { useNavigate } from "react-router";
import { translate as t } from "../../i18n";
import type { Order } from "../../resources/orders";
import { formatDate } from "../../components/format";
import { TaskList } from "../subscriber/TaskList";
import { orderSummary } from "../orders/orderWords";

/** The line's latest requests (plan changes, passes, SIMs, suspensions), each opening its timeline; nothing when there are none. */
export function LineOrders({ lineId, count = 3 }: { lineId: string; count?: number }) {
  const navigate = useNavigate();
  const { result } = useList<Order>({
    resource: "orders",
    pagination: { pageSize: count },
    sorters: [{ field: "createdAt", order: "desc" }],
    filters: [{ field: "lineId", operator: "eq", value: lineId }],
  });
  if (!result.data.length) return null;
  const tasks = result.data.map((order) => ({
    key: order.id,
    title: `${t(`enums.orderType.${order.type}`)} · ${t(`enums.orderState.${order.state}`)}`,
    about: [orderSummary(order), formatDate(order.createdAt.slice(0, 10))].filter(Boolean).join(" "),
    to: `/orders/show/${order.id}`,
  }));
  return <TaskList title={t("subscriber.line.requests")} tasks={tasks} navigate={(to) => void navigate(to)} />;
}
