import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { formatDate } from "../format";
import { getLocale, translate as t } from "../../i18n";
import { dayAxisOptions } from "./dayAxis";

export interface DailySeries {
  label: string;
  color: string;
  values: number[];
  /** How a value reads in the accessible table (defaults to the number). */
  format?: (value: number) => string;
}

const visuallyHidden = {
  position: "absolute",
  width: 1,
  height: 1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
} as const;

/**
 * Values per day as lines on a canvas (uPlot: loaded with the page that shows the chart, never on
 * home). The same figures are in a table for screen readers; the canvas is hidden from them.
 */
export function DailyChart({
  days,
  series,
  caption,
  width,
  testId,
  legend = true,
  ticksOnDays = false,
  fromZero = false,
}: {
  days: string[];
  series: DailySeries[];
  caption: string;
  width: number;
  testId?: string;
  /** The values under the cursor, named (several series); without it the chart is the figure alone. */
  legend?: boolean;
  /** Ticks on the given days only (a few points far apart, such as bills), not every few days. */
  ticksOnDays?: boolean;
  /** The value axis starts at 0, so heights compare as the amounts do ($70 beside $86 is not a cliff). */
  fromZero?: boolean;
}) {
  const holder = useRef<HTMLDivElement>(null);
  const locale = getLocale(); // the axis says its days in it: drawn again when it changes

  useEffect(() => {
    if (!holder.current) return;
    const x = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
    const plot = new uPlot(
      {
        width,
        height: 200,
        tzDate: dayAxisOptions.tzDate,
        legend: { show: legend },
        scales: {
          x: { time: true },
          ...(fromZero
            ? { y: { range: (_plot: uPlot, _min: number, max: number): uPlot.Range.MinMax => [0, max * 1.1 || 1] } }
            : {}),
        },
        axes: [ticksOnDays ? { ...dayAxisOptions.axis, splits: () => x } : dayAxisOptions.axis, { size: 64 }],
        series: [
          // Named, or uPlot's legend says "Time" in English.
          { ...dayAxisOptions.series, label: t("charts.day") },
          ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, points: { show: days.length <= 45 } })),
        ],
      },
      [x, ...series.map((s) => s.values)],
      holder.current,
    );
    return () => plot.destroy();
  }, [width, days, series, locale, legend, ticksOnDays, fromZero]);

  return (
    <figure style={{ margin: 0 }}>
      <div ref={holder} aria-hidden="true" data-testid={testId} />
      <figcaption>
        <table style={visuallyHidden}>
          <caption>{caption}</caption>
          <thead>
            <tr>
              <td />
              {series.map((s) => (
                <th key={s.label} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day, i) => (
              <tr key={day}>
                <th scope="row">{formatDate(day)}</th>
                {series.map((s) => (
                  <td key={s.label}>{s.format ? s.format(s.values[i]!) : s.values[i]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </figcaption>
    </figure>
  );
}
