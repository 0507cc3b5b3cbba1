import { translate as t } from "../../i18n";
import type { Meter } from "../../resources/usage";
import { formatDataMb, formatDate, formatDateTime, formatMoney, formatQuantity, formatTime } from "../format";
import { PlainLink, type Navigate } from "../PlainLink";
import "./meters.css";

// Plain React and CSS, no antd: the meters are the light home's main content (pages/home), which a
// phone renders before the portal's code has run.

/** A meter's quantity in words: MB as MB or GB, minutes, texts; null = unlimited. */
export function meterAmount(meter: Pick<Meter, "type">, value: number | null): string {
  if (meter.type === "data") return formatDataMb(value);
  if (meter.type === "voice") return formatQuantity(value, "units.minutes");
  return value === null
    ? t("units.unlimited")
    : t("usage.meter.messages", { value: formatQuantity(value, "units.texts") });
}

/** One allowance meter: used of allowance with a bar (none when unlimited), what is left, and as of when. */
export function MeterBar({ meter, lineId, navigate }: { meter: Meter; lineId?: string; navigate?: Navigate }) {
  const label = t(`usage.meter.${meter.type}`);
  const limited = meter.allowance !== null;
  const percent = limited ? (meter.allowance === 0 ? 100 : Math.min(100, (meter.used / meter.allowance!) * 100)) : 0;
  const level = percent >= 100 ? "full" : percent >= 80 ? "high" : "ok";
  const usedText = limited
    ? t("usage.meter.usedOf", { used: meterAmount(meter, meter.used), allowance: meterAmount(meter, meter.allowance) })
    : t("usage.meter.usedUnlimited", { used: meterAmount(meter, meter.used) });
  return (
    <div className="meter" data-testid={`meter-${meter.type}`} data-used={meter.used}>
      <div className="meter__head">
        <strong>{label}</strong>
        <span data-testid={`meter-${meter.type}-used`}>{usedText}</span>
      </div>
      {limited && (
        <div
          className={`meter__track meter__track--${level}`}
          role="progressbar"
          aria-label={`${label}: ${usedText}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(percent * 10) / 10}
        >
          <div className="meter__fill" style={{ width: `${percent}%` }} />
        </div>
      )}
      <span className="meter__note">
        {limited
          ? `${t("usage.meter.left", { left: meterAmount(meter, Math.max(0, meter.allowance! - meter.used)) })} · `
          : ""}
        {meter.asOf ? freshness(meter.type, meter.asOf) : t("usage.meter.noUsage")}
      </span>
      {meter.capped && (
        <span className="meter__capped" role="status" data-testid={`meter-${meter.type}-capped`}>
          {t(`usage.meter.capped.${meter.type}`)}
          {meter.type === "data" && lineId && (
            <>
              {" "}
              <BuyData to={`/shop?line=${lineId}`} navigate={navigate} />
            </>
          )}
        </span>
      )}
      {/* Absent for a member of the account (no money, issue 28). */}
      {meter.charged && meter.charged.amount > 0 && (
        <span className="meter__note" data-testid={`meter-${meter.type}-charged`}>
          {t("usage.meter.charged", { amount: formatMoney(meter.charged) })}
        </span>
      )}
    </div>
  );
}

/**
 * How fresh a meter is, as people say it: "Updated 2 min ago" while usage keeps coming; once the
 * line has been quiet for an hour, when it last used any ("No texts since 3:28 AM").
 */
export function freshness(type: Meter["type"], asOf: string, now = new Date()): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - new Date(asOf).getTime()) / 60_000));
  if (minutes < 1) return t("usage.meter.justNow");
  if (minutes < 60) return t("usage.meter.minutesAgo", { minutes });
  const today = new Date(asOf).toDateString() === now.toDateString();
  return t(`usage.meter.quietSince.${type}`, { time: today ? formatTime(asOf) : formatDateTime(asOf) });
}

/** The way to more data from a stopped meter: the shop, on this line. A plain link on the light home (no router). */
function BuyData({ to, navigate }: { to: string; navigate?: Navigate }) {
  const label = t("usage.meter.buyData");
  return navigate ? (
    <PlainLink to={to} navigate={navigate} className="meter__action">
      {label}
    </PlainLink>
  ) : (
    <a href={to} className="meter__action">
      {label}
    </a>
  );
}

/** The meters of one line and how long its cycle still runs (and, when its cancellation is scheduled, that it then ends). */
export function LineMeters({
  meters,
  daysLeft,
  lineId,
  navigate,
  cancelsOn,
}: {
  meters: Meter[];
  daysLeft: number;
  lineId?: string;
  navigate?: Navigate;
  /** The day a scheduled cancellation ends the line: the cycle does not renew. */
  cancelsOn?: string | null;
}) {
  const cycleEnd = meters[0]?.cycleEnd;
  const [lastDay, left] = cancelsOn
    ? (["usage.cycle.lastDayCancels", "usage.cycle.daysLeftCancels"] as const)
    : (["usage.cycle.lastDay", "usage.cycle.daysLeft"] as const);
  return (
    <div className="meters">
      {meters.map((meter) => (
        <MeterBar key={meter.type} meter={meter} lineId={lineId} navigate={navigate} />
      ))}
      {cycleEnd && (
        <span className="meter__note" data-testid="cycle-left">
          {daysLeft <= 1
            ? t(lastDay, { date: formatDate(cancelsOn ?? cycleEnd) })
            : t(left, { days: daysLeft, date: formatDate(cancelsOn ?? cycleEnd) })}
        </span>
      )}
    </div>
  );
}
