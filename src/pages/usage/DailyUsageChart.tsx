import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { getLocale, translate as t } from "../../i18n";
import type { DailyUsage } from "../../resources/usage";
import { formatDate } from "../../components/format";
import { dayAxisOptions } from "../../components/charts/dayAxis";

/** Days of the cycle from its first to its last, as UTC midnights in seconds (uPlot's x axis). */
function cycleDays(usage: DailyUsage): { x: number[]; keys: string[] } {
  const x: number[] = [];
  const keys: string[] = [];
  for (
    let at = Date.parse(`${usage.cycleStart}T00:00:00Z`);
    at < Date.parse(`${usage.cycleEnd}T00:00:00Z`);
    at += 86_400_000
  ) {
    x.push(at / 1000);
    keys.push(new Date(at).toISOString().slice(0, 10));
  }
  return { x, keys };
}

/**
 * Data used per day of the cycle, as bars (uPlot on a canvas: this module, and uPlot with it, load
 * only with the usage history page). The figures are also in a table for screen readers.
 */
export function DailyUsageChart({ usage, width }: { usage: DailyUsage; width: number }) {
  const holder = useRef<HTMLDivElement>(null);
  const locale = getLocale(); // the axis says its days in it: drawn again when it changes
  const { x, keys } = cycleDays(usage);
  const byDay = new Map(usage.days.map((d) => [d.day, d]));
  const data = keys.map((key) => byDay.get(key)?.data ?? 0);

  useEffect(() => {
    if (!holder.current) return;
    const plot = new uPlot(
      {
        width,
        height: 180,
        legend: { show: false },
        tzDate: dayAxisOptions.tzDate,
        scales: { x: { time: true } },
        axes: [dayAxisOptions.axis, { label: "MB", size: 56 }],
        series: [
          dayAxisOptions.series,
          {
            label: t("usage.meter.data"),
            stroke: "#0057b8",
            fill: "rgba(0, 87, 184, 0.25)",
            paths: uPlot.paths.bars!({ size: [0.7, 24] }),
            points: { show: false },
          },
        ],
      },
      [x, data],
      holder.current,
    );
    return () => plot.destroy();
  }, [width, usage, locale]);

  return (
    <figure style={{ margin: 0 }}>
      <div ref={holder} aria-hidden="true" data-testid="daily-usage-chart" />
      <figcaption>
        {/* Hidden by its holder: a table is never smaller than its rows, so hidden itself it lengthened the page. */}
        <div
          style={{
            position: "absolute",
            width: 1,
            height: 1,
            overflow: "hidden",
            clip: "rect(0 0 0 0)",
            whiteSpace: "nowrap",
          }}
        >
          <table>
            <caption>
              {t("usage.history.chartCaption", { from: formatDate(usage.cycleStart), to: formatDate(usage.cycleEnd) })}
            </caption>
            <tbody>
              {usage.days.map((d) => (
                <tr key={d.day}>
                  <th scope="row">{formatDate(d.day)}</th>
                  <td>{d.data} MB</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </figcaption>
    </figure>
  );
}
