import type { DeclaredResource } from "../declaredResource";
import { Space } from "antd";
import { ResourceListPage } from "../ResourceListPage";
import { DailyUsageCard } from "./DailyUsageCard";

/** Usage history: this cycle's data per day for one line (a chart), then every record, filtered and exported by the generic list. */
export default function UsageRecordsPage({ resource }: { resource: DeclaredResource }) {
  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <DailyUsageCard />
      <ResourceListPage resource={resource} subscriberTools />
    </Space>
  );
}
