import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { formatDate } from "../format";
import { getLocale } from "../../i18n";
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
}: {
  days: string[];
  series: DailySeries[];
  caption: string;
  width: number;
  testId?: string;
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
        scales: { x: { time: true } },
        axes: [dayAxisOptions.axis, { size: 64 }],
        series: [
          dayAxisOptions.series,
          ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, points: { show: days.length <= 45 } })),
        ],
      },
      [x, ...series.map((s) => s.values)],
      holder.current,
    );
    return () => plot.destroy();
  }, [width, days, series, locale]);

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
