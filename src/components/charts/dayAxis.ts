import uPlot from "uplot";
import { formatDate, formatDayOfMonth } from "../format";

const DAY_SECONDS = 86_400;
const isoDay = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/**
 * uPlot options for charts whose x values are days (UTC midnights, in seconds). Left to itself uPlot
 * words its time axis in US English ("11/3") whatever the page's language, and puts its ticks at the
 * browser's midnights, a day early west of Greenwich. Here the ticks fall on the days themselves,
 * whole days apart, and read as the page's language writes a date ("Nov 3", "3 nov").
 */
export const dayAxisOptions = {
  tzDate: (seconds: number) => uPlot.tzDate(new Date(seconds * 1000), "Etc/UTC"),
  axis: {
    incrs: [1, 2, 3, 7, 14, 28].map((days) => days * DAY_SECONDS),
    values: (_plot: uPlot, splits: number[]) => splits.map((seconds) => formatDayOfMonth(isoDay(seconds))),
  },
  /** The legend's day, when a chart shows one. */
  series: { value: (_plot: uPlot, seconds: number | null) => (seconds == null ? "" : formatDate(isoDay(seconds))) },
} satisfies { tzDate: uPlot.LocalDateFromUnix; axis: uPlot.Axis; series: uPlot.Series };
