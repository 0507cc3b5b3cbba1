import { usageRecordsResource, type UsageRecord } from "../../../resources/usageRecords";
import type { Subscriber } from "../../../resources/subscribers";
import { declaredColumns, PagedSection } from "./PagedSection";
import { useAccountLineIds } from "./useAccountLineIds";

/** The latest usage records (data, calls, texts, roaming) of the account's lines, newest first. */
export function UsageSection({ subscriber }: { subscriber: Subscriber }) {
  const lines = useAccountLineIds(subscriber);
  // An account without lines has no usage: a filter on no ids would match nothing anyway.
  const ids = lines.ids.length ? lines.ids : [subscriber.id];
  return (
    <PagedSection<UsageRecord>
      testId="section-usage-records"
      enabled={lines.ready}
      source={{
        resource: "usage-records",
        filters: [{ field: "lineId", operator: "in", value: ids }],
        sorters: [{ field: "startedAt", order: "desc" }],
      }}
      columns={declaredColumns<UsageRecord>(usageRecordsResource, [
        "startedAt",
        "msisdn",
        "type",
        "quantity",
        "unit",
        "roamingZone",
      ])}
    />
  );
}
