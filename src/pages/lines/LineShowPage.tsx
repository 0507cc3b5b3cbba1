import type { DeclaredResource } from "../declaredResource";
import { useGetIdentity, useOne } from "@refinedev/core";
import { useParams } from "react-router";
import type { SessionUser } from "../../providers/session";
import type { Line } from "../../resources/lines";
import { ResourceShowPage } from "../ResourceShowPage";
import { LineAddOns } from "../../components/addOns/LineAddOns";
import { PlanCatalog } from "../../components/plans/PlanCatalog";
import { SubscriberLinePage } from "./SubscriberLinePage";
import { drawnWhenNotFound } from "../../components/notFoundDrawn";

/** The line page: a subscriber's own designed page; for staff the generic record view, the plans it can move to, then its add-ons (active ones and passes to buy). */
export default function LineShowPage({ resource }: { resource: DeclaredResource }) {
  const { id } = useParams();
  const { data: user } = useGetIdentity<SessionUser>();
  // The same query as the record view above: the add-ons read the line's state from it, with no request of their own.
  const { result: line } = useOne<Line>({
    resource: resource.name,
    id,
    queryOptions: { enabled: Boolean(id) && user?.role !== "subscriber" },
    errorNotification: drawnWhenNotFound,
  });
  if (id && user?.role === "subscriber") return <SubscriberLinePage id={id} />;
  return (
    <>
      <ResourceShowPage resource={resource} />
      {id && <PlanCatalog lineId={id} />}
      {line?.id && <LineAddOns line={line} offersPasses />}
    </>
  );
}
