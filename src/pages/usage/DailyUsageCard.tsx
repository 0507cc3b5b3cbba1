import { useState } from "react";
import { useCustom, useList } from "@refinedev/core";
import { Card, Select, Skeleton, Typography } from "antd";
import type { Line } from "../../resources/lines";
import type { DailyUsage } from "../../resources/usage";
import { translate as t } from "../../i18n";
import { formatMsisdn } from "../../components/format";
import { useWidth } from "../../components/charts/useWidth";
import { DailyUsageChart } from "./DailyUsageChart";

/** This cycle's data per day for one line (a chart), with a line picker when there are several. */
export function DailyUsageCard() {
  const { result: lines } = useList<Line>({ resource: "lines", pagination: { pageSize: 50 } });
  const [lineId, setLineId] = useState<string>();
  const chosen = lineId ?? lines.data[0]?.id;
  // Not `result.data`: refine gives an empty object there until an answer arrives (and while the query waits for a line).
  const { query } = useCustom<DailyUsage>({
    url: `/lines/${chosen}/usage-daily`,
    method: "get",
    queryOptions: { enabled: !!chosen },
  });
  const usage = query.data?.data;
  const { ref, width } = useWidth();
  return (
    <Card
      title={
        <Typography.Title level={2} style={{ margin: 0, fontSize: 18 }}>
          {t("usage.history.title")}
        </Typography.Title>
      }
    >
      {/* The line picker sits under the title, not beside it: at 360 px the two together clip the title. */}
      {lines.data.length > 1 && (
        <Select
          aria-label={t("usage.history.line")}
          value={chosen}
          onChange={setLineId}
          options={lines.data.map((l) => ({ value: l.id, label: formatMsisdn(l.msisdn) }))}
          style={{ minWidth: 180, marginBottom: 12 }}
        />
      )}
      <div ref={ref}>{usage ? <DailyUsageChart usage={usage} width={width} /> : <Skeleton active />}</div>
    </Card>
  );
}
