import { translate as t } from "../../i18n";
import type { Order, OrderStep } from "../../resources/orders";
import { formatMsisdn } from "../../components/format";

/** "Plan change for (202) 555-0101": the order's kind and the line it is for. */
export function orderTitle(order: Pick<Order, "type" | "msisdn">): string {
  const kind = t(`enums.orderType.${order.type}`);
  return order.msisdn ? t("subscriber.order.title", { kind, number: formatMsisdn(order.msisdn) }) : kind;
}

const text = (value: unknown) => (typeof value === "string" && value ? value : null);

/** What the order changes, in one sentence, from its details; null when there is nothing to add to its title. */
export function orderSummary(order: Pick<Order, "type" | "details">): string | null {
  const d = order.details;
  switch (order.type) {
    case "change_plan":
      return text(d.fromPlanName) && text(d.toPlanName)
        ? t("subscriber.order.summary.changePlan", { from: d.fromPlanName, to: d.toPlanName })
        : null;
    case "add_on":
      return text(d.addOnName)
        ? t(d.autoRenew ? "subscriber.order.summary.addOnRenewing" : "subscriber.order.summary.addOn", {
            name: d.addOnName,
          })
        : null;
    case "suspend": {
      const reason = text(d.suspendReason);
      return reason
        ? t(`subscriber.order.summary.suspend.${reason}`, undefined, t("subscriber.order.summary.suspend.request"))
        : null;
    }
    case "restore":
      return t("subscriber.order.summary.restore");
    case "sim_swap":
      if (d.delivery && typeof d.delivery === "object") return t("subscriber.order.summary.simPosted");
      return t(d.simType === "esim" ? "subscriber.order.summary.esim" : "subscriber.order.summary.sim");
    case "esim_transfer":
      return t("subscriber.order.summary.esimTransfer");
    case "port_in": {
      const portIn = d.portIn as { msisdn?: unknown } | undefined;
      const number = text(portIn?.msisdn);
      const temporary = text(d.temporaryMsisdn);
      if (!number) return null;
      return temporary && !d.portedAt
        ? t("subscriber.order.summary.portIn", { number: formatMsisdn(number), temporary: formatMsisdn(temporary) })
        : t("subscriber.order.summary.portInDone", { number: formatMsisdn(number) });
    }
    default:
      return null;
  }
}

/** Who took a step, as the subscriber would say it: they did, our team did, or it happened by itself. */
export function stepBy(role: OrderStep["byRole"]): string {
  return t(
    role === "subscriber"
      ? "subscriber.order.byYou"
      : role === "system"
        ? "subscriber.order.bySystem"
        : "subscriber.order.byTeam",
  );
}
