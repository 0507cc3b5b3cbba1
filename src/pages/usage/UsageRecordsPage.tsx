import { useState } from "react";
import { useCustom, useList } from "@refinedev/core";
import { Card, Select, Skeleton, Space, Typography } from "antd";
import type { ResourceDefinition } from "../../resources/define";
import type { Line } from "../../resources/lines";
import type { DailyUsage } from "../../resources/usage";
import { translate as t } from "../../i18n";
import { formatMsisdn } from "../../components/format";
import { ResourceListPage } from "../ResourceListPage";
import { DailyUsageChart } from "./DailyUsageChart";
import { useWidth } from "../../components/charts/useWidth";

/** Usage history: this cycle's data per day for one line (a chart), then every record, filtered and exported by the generic list. */
export default function UsageRecordsPage({ resource }: { resource: ResourceDefinition<any, any> }) {
  const { result: lines } = useList<Line>({ resource: "lines", pagination: { pageSize: 50 } });
  const [lineId, setLineId] = useState<string>();
  const chosen = lineId ?? lines.data[0]?.id;
  // Not `result.data`: refine gives an empty object there until an answer arrives (and while the query waits for a line).
  const { query } = useCustom<DailyUsage>({ url: `/lines/${chosen}/usage-daily`, method: "get", queryOptions: { enabled: !!chosen } });
  const usage = query.data?.data;
  const { ref, width } = useWidth();

  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <Card
        title={<Typography.Title level={2} style={{ margin: 0, fontSize: 20 }}>{t("usage.history.title")}</Typography.Title>}
        extra={
          lines.data.length > 1 && (
            <Select
              aria-label={t("usage.history.line")}
              value={chosen}
              onChange={setLineId}
              options={lines.data.map((l) => ({ value: l.id, label: formatMsisdn(l.msisdn) }))}
              style={{ minWidth: 160 }}
            />
          )
        }
      >
        <div ref={ref}>{usage ? <DailyUsageChart usage={usage} width={width} /> : <Skeleton active />}</div>
      </Card>
      <ResourceListPage resource={resource} />
    </Space>
  );
}
