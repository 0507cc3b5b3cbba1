import { useGetIdentity } from "@refinedev/core";
import { useParams } from "react-router";
import type { ResourceDefinition } from "../../resources/define";
import type { SessionUser } from "../../providers/session";
import { ResourceShowPage } from "../ResourceShowPage";
import { LineAddOns } from "../../components/addOns/LineAddOns";
import { PlanCatalog } from "../../components/plans/PlanCatalog";
import { SubscriberLinePage } from "./SubscriberLinePage";

/** The line page: a subscriber's own designed page; for staff the generic record view, the plans it can move to, then its add-ons (active ones and passes to buy). */
export default function LineShowPage({ resource }: { resource: ResourceDefinition<any, any> }) {
  const { id } = useParams();
  const { data: user } = useGetIdentity<SessionUser>();
  if (id && user?.role === "subscriber") return <SubscriberLinePage id={id} />;
  return (
    <>
      <ResourceShowPage resource={resource} />
      {id && <PlanCatalog lineId={id} />}
      {id && user && (
        <LineAddOns
          lineId={id}
          canBuy={Boolean(user.role && resource.access["buy-add-on"]?.[user.role])}
          reasonRequired={user.role !== "subscriber"}
        />
      )}
    </>
  );
}
