import { useState } from "react";
import { useCustom, useGetIdentity } from "@refinedev/core";
import { useSearchParams } from "react-router";
import { Segmented, Skeleton } from "antd";
import { translate as t } from "../../i18n";
import type { Home } from "../../resources/usage";
import type { SessionUser } from "../../providers/session";
import { formatMsisdn } from "../../components/format";
import { PlanCatalog } from "../../components/plans/PlanCatalog";
import { LineAddOns } from "../../components/addOns/LineAddOns";
import { DestinationMore } from "./DestinationMore";
import { AddLineCard } from "./AddLineCard";
import "./subscriber.css";

/**
 * Shop: for one line at a time (a picker when there are several), the plans it can move to and the
 * passes it can buy. Both run the line's declared actions (change-plan, buy-add-on) with their quotes.
 * Then a line more for the family, on an account the person holds (add-line).
 */
export function ShopPage() {
  const { data: user } = useGetIdentity<SessionUser>();
  const { result } = useCustom<Home>({ url: "/home", method: "get" });
  const lines = result.data?.lines;
  const [search] = useSearchParams();
  // The home's Buy data names the line that needs it.
  const [picked, setPicked] = useState<string | undefined>(search.get("line") ?? undefined);
  const lineId = picked ?? lines?.[0]?.id;
  const line = lines?.find((l) => l.id === lineId);
  return (
    <div className="sub-page">
      <h1 className="sub-page__title">{t("destinations.shop")}</h1>
      {!lines ? (
        <Skeleton active />
      ) : (
        <>
          {lines.length > 1 && (
            <div role="group" aria-label={t("subscriber.shop.forLine")}>
              <p className="sub-card__muted" style={{ margin: "0 0 4px" }}>
                {t("subscriber.shop.forLine")}
              </p>
              <Segmented
                block
                value={lineId}
                onChange={(v) => setPicked(String(v))}
                options={lines.map((l) => ({ value: l.id, label: formatMsisdn(l.msisdn) }))}
              />
            </div>
          )}
          {lineId && user && (
            <>
              <PlanCatalog key={`plans-${lineId}`} lineId={lineId} />
              {line && <LineAddOns key={`add-ons-${lineId}`} line={line} offersPasses />}
            </>
          )}
        </>
      )}
      {user?.role === "subscriber" && <AddLineCard uid={user.uid} />}
      <DestinationMore place="shop" drawn={["plans", "add-ons"]} />
    </div>
  );
}
