import type { DeclaredResource } from "../declaredResource";
import { useList } from "@refinedev/core";
import { Space } from "antd";
import type { Line } from "../../resources/lines";
import { ResourceListPage } from "../ResourceListPage";
import { DailyUsageCard } from "./DailyUsageCard";

/** Usage history: this cycle's data per day for one line (a chart), then every record, filtered and exported by the generic list. */
export default function UsageRecordsPage({ resource }: { resource: DeclaredResource }) {
  const { result, query } = useList<Line>({ resource: "lines", pagination: { pageSize: 50 } });
  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <DailyUsageCard lines={query.isSuccess ? result.data : undefined} />
      <ResourceListPage resource={resource} subscriberTools />
    </Space>
  );
}
