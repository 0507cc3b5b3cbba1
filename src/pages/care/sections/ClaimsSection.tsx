import { deviceClaimsResource } from "../../../resources/deviceClaims";
import type { Subscriber } from "../../../resources/subscribers";
import { translate as t } from "../../../i18n";
import { formatMsisdn } from "../../../components/format";
import { declaredColumns, PagedSection } from "./PagedSection";
import { useAccountLineIds } from "./useAccountLineIds";

type DeviceClaim = { id: string; lineId: string } & Record<string, unknown>;

/** Device-protection claims filed on the account's lines, newest first, with their state. */
export function ClaimsSection({ subscriber }: { subscriber: Subscriber }) {
  const lines = useAccountLineIds(subscriber);
  const msisdnOf = new Map(lines.lines.map((line) => [line.id, line.msisdn]));
  const ids = lines.ids.length ? lines.ids : [subscriber.id];
  return (
    <PagedSection<DeviceClaim>
      testId="section-claims"
      enabled={lines.ready}
      source={{
        resource: "device-claims",
        filters: [{ field: "lineId", operator: "in", value: ids }],
        sorters: [{ field: "createdAt", order: "desc" }],
      }}
      columns={[
        {
          key: "line",
          title: t("fields.msisdn"),
          render: (_: unknown, claim) => (msisdnOf.has(claim.lineId) ? formatMsisdn(msisdnOf.get(claim.lineId)!) : "—"),
        },
        ...declaredColumns<DeviceClaim>(deviceClaimsResource, [
          "incident",
          "occurredOn",
          "description",
          "status",
          "createdAt",
        ]),
      ]}
    />
  );
}
