import { afterEach, describe, expect, it } from "vitest";
import type uPlot from "uplot";
import { dayAxisOptions } from "../../src/components/charts/dayAxis";
import { setLocale } from "../../src/i18n";

afterEach(() => setLocale("en"));

const seconds = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;
const plot = {} as uPlot;
const ticks = (...days: string[]) => dayAxisOptions.axis.values(plot, days.map(seconds));

describe("a chart's day axis (charts/dayAxis.ts)", () => {
  it("words its days in the page's language, not uPlot's US English", () => {
    expect(ticks("2026-11-03", "2026-12-01")).toEqual(["Nov 3", "Dec 1"]);
    setLocale("es");
    expect(ticks("2026-11-03", "2026-12-01")).toEqual(["3 nov", "1 dic"]);
    expect(dayAxisOptions.series.value(plot, seconds("2026-11-03"))).toBe("3 nov 2026");
  });

  it("puts the ticks on the days themselves (UTC), whole days apart", () => {
    // uPlot finds its ticks on the dates tzDate gives: a UTC midnight must stay that day's midnight.
    const midnight = dayAxisOptions.tzDate(seconds("2026-11-03"));
    expect([midnight.getFullYear(), midnight.getMonth(), midnight.getDate(), midnight.getHours()]).toEqual([
      2026, 10, 3, 0,
    ]);
    expect(dayAxisOptions.axis.incrs.every((step) => step % 86_400 === 0)).toBe(true);
  });
});
