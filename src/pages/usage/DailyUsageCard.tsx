import { lazy, Suspense, useState } from "react";
import type { DailyUsage } from "../../resources/usage";
import { translate as t } from "../../i18n";
import { formatMsisdn } from "../../components/format";
import { useWidth } from "../../components/charts/useWidth";
import { useLiveGet } from "../home/useLiveGet";
import "../home/home.css";
import "../subscriber/subscriber.css";

// uPlot comes with the chart, in a chunk of its own: the page's first paint does not wait for it.
const DailyUsageChart = lazy(() => import("./DailyUsageChart").then((m) => ({ default: m.DailyUsageChart })));

export interface ChartedLine {
  id: string;
  msisdn: string;
}

/**
 * This cycle's data per day for one line (a chart), with a line picker when there are several. Plain
 * React and CSS, so the light Usage page on a phone draws it before the portal's code runs; `lines`
 * undefined while the page's lines load, and no card for a person with none.
 */
export function DailyUsageCard({ lines }: { lines: readonly ChartedLine[] | undefined }) {
  const [lineId, setLineId] = useState<string>();
  const chosen = lines?.find((l) => l.id === lineId)?.id ?? lines?.[0]?.id;
  if (lines?.length === 0) return null;
  return (
    <section className="sub-card" aria-labelledby="daily-usage-title">
      <h2 className="sub-card__title" id="daily-usage-title">
        {t("usage.history.title")}
      </h2>
      {/* The line picker sits under the title, not beside it: at 360 px the two together clip the title. */}
      {lines && lines.length > 1 && (
        <select
          aria-label={t("usage.history.line")}
          className="sub-select"
          value={chosen}
          onChange={(event) => setLineId(event.target.value)}
        >
          {lines.map((l) => (
            <option key={l.id} value={l.id}>
              {formatMsisdn(l.msisdn)}
            </option>
          ))}
        </select>
      )}
      {chosen ? <LineDays key={chosen} lineId={chosen} /> : <Loading />}
    </section>
  );
}

/** One line's days, kept current as its usage is rated (the meters' live events). */
function LineDays({ lineId }: { lineId: string }) {
  const usage = useLiveGet<DailyUsage>(`/lines/${lineId}/usage-daily`, "meters");
  const { ref, width } = useWidth();
  if (usage.error)
    return (
      <p role="alert" className="home__error">
        {t("usage.history.error", { message: usage.error })}
      </p>
    );
  return (
    <div ref={ref}>
      {usage.data ? (
        <Suspense fallback={<Loading />}>
          <DailyUsageChart usage={usage.data} width={width} />
        </Suspense>
      ) : (
        <Loading />
      )}
    </div>
  );
}

const Loading = () => (
  <div className="home__loading daily-usage__loading" role="status" aria-label={t("usage.history.loading")} />
);
