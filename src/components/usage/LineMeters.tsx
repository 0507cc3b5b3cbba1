import { Progress, Space, Typography } from "antd";
import { translate as t } from "../../i18n";
import type { Meter } from "../../resources/usage";
import { formatDataMb, formatDate, formatDateTime, formatQuantity } from "../format";

/** A meter's quantity in words: MB as MB or GB, minutes, texts; null = unlimited. */
export function meterAmount(meter: Pick<Meter, "type">, value: number | null): string {
  if (meter.type === "data") return formatDataMb(value);
  if (meter.type === "voice") return formatQuantity(value, "units.minutes");
  return value === null ? t("units.unlimited") : t("usage.meter.messages", { value: formatQuantity(value, "units.texts") });
}

/** One allowance meter: used of allowance with a bar (none when unlimited), what is left, and as of when. */
export function MeterBar({ meter }: { meter: Meter }) {
  const label = t(`usage.meter.${meter.type}`);
  const limited = meter.allowance !== null;
  const percent = limited ? (meter.allowance === 0 ? 100 : Math.min(100, (meter.used / meter.allowance!) * 100)) : 0;
  const status = percent >= 100 ? "exception" : percent >= 80 ? "normal" : "active";
  return (
    <div data-testid={`meter-${meter.type}`} data-used={meter.used}>
      <Space style={{ width: "100%", justifyContent: "space-between" }} wrap>
        <Typography.Text strong>{label}</Typography.Text>
        <Typography.Text data-testid={`meter-${meter.type}-used`}>
          {limited
            ? t("usage.meter.usedOf", { used: meterAmount(meter, meter.used), allowance: meterAmount(meter, meter.allowance) })
            : t("usage.meter.usedUnlimited", { used: meterAmount(meter, meter.used) })}
        </Typography.Text>
      </Space>
      {limited && (
        <Progress
          percent={Math.round(percent * 10) / 10}
          showInfo={false}
          status={status}
          strokeColor={percent >= 80 && percent < 100 ? "#ad6800" : undefined}
          aria-label={`${label}: ${t("usage.meter.usedOf", { used: meterAmount(meter, meter.used), allowance: meterAmount(meter, meter.allowance) })}`}
        />
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {limited ? `${t("usage.meter.left", { left: meterAmount(meter, Math.max(0, meter.allowance! - meter.used)) })} · ` : ""}
        {meter.asOf ? t("usage.meter.asOf", { time: formatDateTime(meter.asOf) }) : t("usage.meter.noUsage")}
      </Typography.Text>
    </div>
  );
}

/** The meters of one line and how long its cycle still runs. */
export function LineMeters({ meters, daysLeft }: { meters: Meter[]; daysLeft: number }) {
  const cycleEnd = meters[0]?.cycleEnd;
  return (
    <Space direction="vertical" size="middle" style={{ width: "100%" }}>
      {meters.map((meter) => (
        <MeterBar key={meter.type} meter={meter} />
      ))}
      {cycleEnd && (
        <Typography.Text type="secondary" data-testid="cycle-left">
          {daysLeft <= 1 ? t("usage.cycle.lastDay", { date: formatDate(cycleEnd) }) : t("usage.cycle.daysLeft", { days: daysLeft, date: formatDate(cycleEnd) })}
        </Typography.Text>
      )}
    </Space>
  );
}
