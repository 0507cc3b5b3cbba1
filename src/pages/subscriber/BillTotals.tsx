import { lazy, Suspense } from "react";
import type { Invoice } from "../../resources/invoices";
import { translate as t } from "../../i18n";
import { formatDate, formatMoney, toMajor, toMinor } from "../../components/format";
import { useWidth } from "../../components/charts/useWidth";

// uPlot comes with the chart, in a chunk of its own: Money's first paint (and the light pages') does not wait for it.
const DailyChart = lazy(() => import("../../components/charts/DailyChart").then((m) => ({ default: m.DailyChart })));

/**
 * The account's last bills side by side: each bill's total at the end of its period, as a chart (with
 * the same figures in a table for screen readers), so this month is read against the ones before.
 * Voided bills are left out; with fewer than two bills there is nothing to compare, and no chart.
 */
export function BillTotals({ bills }: { bills: readonly Invoice[] }) {
  const { ref, width } = useWidth();
  const shown = bills.filter((bill) => bill.status !== "void").sort((a, b) => a.periodEnd.localeCompare(b.periodEnd));
  if (shown.length < 2) return null;
  const currency = shown[0]!.total.currency;
  const first = shown[0]!.periodEnd;
  const last = shown.at(-1)!.periodEnd;
  return (
    <div ref={ref} data-testid="bill-totals">
      <h3 className="sub-card__muted" style={{ fontSize: 14, margin: "16px 0 4px" }}>
        {t("subscriber.money.totalsTitle")}
      </h3>
      <Suspense fallback={null}>
        <DailyChart
          days={shown.map((bill) => bill.periodEnd)}
          series={[
            {
              label: t("subscriber.money.billTotal"),
              color: "#0057b8",
              values: shown.map((bill) => toMajor(bill.total.amount, currency)),
              format: (value) => formatMoney({ amount: toMinor(value, currency), currency }),
            },
          ]}
          caption={t("subscriber.money.totalsCaption", { from: formatDate(first), to: formatDate(last) })}
          width={width}
          testId="bill-totals-chart"
          legend={false}
          ticksOnDays
          fromZero
        />
      </Suspense>
    </div>
  );
}
