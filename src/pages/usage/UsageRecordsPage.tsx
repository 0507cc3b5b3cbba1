import { Space } from "antd";
import type { ResourceDefinition } from "../../resources/define";
import { ResourceListPage } from "../ResourceListPage";
import { DailyUsageCard } from "./DailyUsageCard";

/** Usage history: this cycle's data per day for one line (a chart), then every record, filtered and exported by the generic list. */
export default function UsageRecordsPage({ resource }: { resource: ResourceDefinition<any, any> }) {
  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <DailyUsageCard />
      <ResourceListPage resource={resource} subscriberTools />
    </Space>
  );
}
