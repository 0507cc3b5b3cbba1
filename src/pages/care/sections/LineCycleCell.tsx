import { useCustom } from "@refinedev/core";
import { Skeleton, Typography } from "antd";
import type { Line } from "../../../resources/lines";
import type { Meter } from "../../../resources/usage";
import { translate as t } from "../../../i18n";
import { formatDate, formatMoney } from "../../../components/format";
import { StatusTag } from "../../../components/StatusTag";

/**
 * What the line's cycle did to service and money, for an agent answering "why does my data not
 * work?" or "what is this charge?": the usage types barred past the allowance, the overage rated this
 * cycle, pay-as-you-go off, and how long a line in grace has left.
 */
export function LineCycleCell({ line }: { line: Line }) {
  const { query } = useCustom<Meter[]>({ url: `/lines/${line.id}/meters`, method: "get" });
  const meters = query.data?.data;
  if (!meters) return query.isError ? null : <Skeleton.Button active size="small" />;
  const capped = meters.filter((m) => m.capped);
  // Staff always get what usage past the allowance cost; only a member's meters leave it out.
  const charged = meters.flatMap((m) => (m.charged && m.charged.amount > 0 ? [{ ...m, charged: m.charged }] : []));
  const parts = [
    ...capped.map((m) => (
      <StatusTag key={`capped-${m.type}`} tone="bad">
        {t("care.cycle.capped", { type: t(`usage.meter.${m.type}`) })}
      </StatusTag>
    )),
    ...charged.map((m) => (
      <Typography.Text key={`charged-${m.type}`}>
        {t("care.cycle.charged", { type: t(`usage.meter.${m.type}`), amount: formatMoney(m.charged) })}
      </Typography.Text>
    )),
    !line.payAsYouGo && (
      <Typography.Text key="payg" type="secondary">
        {t("care.cycle.payAsYouGoOff")}
      </Typography.Text>
    ),
    line.status === "grace" && line.graceEndsOn && (
      <StatusTag key="grace" tone="warning">
        {t("care.cycle.graceUntil", { date: formatDate(line.graceEndsOn) })}
      </StatusTag>
    ),
  ].filter(Boolean);
  return (
    <span data-testid="line-cycle" style={{ display: "flex", flexDirection: "column", gap: 2 }}>
      {parts.length ? parts : <Typography.Text type="secondary">{t("care.cycle.normal")}</Typography.Text>}
    </span>
  );
}
