import { useCustom, useSubscription } from "@refinedev/core";
import { Skeleton } from "antd";
import { useNavigate } from "react-router";
import { translate as t } from "../../i18n";
import { catalogName } from "../../i18n/catalogText";
import type { Home } from "../../resources/usage";
import { formatMsisdn } from "../../components/format";
import { LineMeters } from "../../components/usage/LineMeters";
import { DailyUsageCard } from "../usage/DailyUsageCard";
import { DestinationMore } from "./DestinationMore";
import "./subscriber.css";

/** Usage: each line's allowances this cycle, its data per day, and the full history under More. */
export function UsagePage() {
  const { result, query } = useCustom<Home>({ url: "/home", method: "get" });
  const navigate = useNavigate();
  useSubscription({ channel: "resources/meters", types: ["*"], onLiveEvent: () => void query.refetch() });
  const lines = result.data?.lines;
  return (
    <div className="sub-page">
      <h1 className="sub-page__title">{t("destinations.usage")}</h1>
      {!lines ? (
        <Skeleton active />
      ) : (
        lines.map((line) => (
          <section key={line.id} className="sub-card" aria-labelledby={`usage-${line.id}`}>
            <h2 className="sub-card__title" id={`usage-${line.id}`}>
              {formatMsisdn(line.msisdn)} · {catalogName(line.plan)}
            </h2>
            <LineMeters
              meters={line.meters}
              daysLeft={line.daysLeft}
              lineId={line.id}
              navigate={(to) => void navigate(to)}
            />
          </section>
        ))
      )}
      <DailyUsageCard />
      <DestinationMore place="usage" />
    </div>
  );
}
