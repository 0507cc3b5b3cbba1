import type { ReactNode } from "react";
import { translate as t } from "../../i18n";
import { catalogName } from "../../i18n/catalogText";
import type { Home } from "../../resources/usage";
import { formatMsisdn } from "../../components/format";
import type { Navigate } from "../../components/PlainLink";
import { LineMeters } from "../../components/usage/LineMeters";
import { DailyUsageCard } from "../usage/DailyUsageCard";
import { useLiveGet } from "../home/useLiveGet";
import { usePageDrawn } from "../home/pageDrawn";
import "../home/home.css";
import "./subscriber.css";
import { accountKindsOf, HeldAccountKinds } from "./heldAccountKinds";

/**
 * Usage: each line's allowances this cycle, its data per day, then `more` (the full history and what
 * else is declared for this place). Plain React and CSS, so the portal and the light pages on a phone
 * (main.tsx) draw the same page; its data is GET /home (taken from the sign-in's prefetch by the data
 * provider), kept live by the meters' events.
 */
export function UsageView({ navigate, more }: { navigate: Navigate; more: ReactNode }) {
  const home = useLiveGet<Home>("/home", "meters");
  const lines = home.data?.lines;
  const drawn = usePageDrawn(Boolean(lines || home.error));
  return (
    <div className="sub-page">
      <h1 className="sub-page__title">{t("destinations.usage")}</h1>
      {home.error ? (
        <p role="alert" className="home__error">
          {t("usage.home.error", { message: home.error })}
        </p>
      ) : !lines ? (
        <div className="home__loading" role="status" aria-label={t("dashboard.loadingLines")} />
      ) : lines.length === 0 ? (
        <p className="home__empty">{t("dashboard.noLines")}</p>
      ) : (
        lines.map((line) => (
          <section key={line.id} className="sub-card" aria-labelledby={`usage-${line.id}`}>
            <h2 className="sub-card__title" id={`usage-${line.id}`}>
              {formatMsisdn(line.msisdn)} · {catalogName(line.plan)}
            </h2>
            <LineMeters meters={line.meters} daysLeft={line.daysLeft} lineId={line.id} navigate={navigate} />
          </section>
        ))
      )}
      {/* Below the lines once they are painted: drawn while they load, the card (and More) jumped down
          by a screen's height when they came (a layout shift of 0.21 at a phone's size); drawn with
          them, the chart's code and request came before the lines' paint. */}
      {drawn && (
        <>
          <DailyUsageCard lines={home.error ? [] : lines} />
          <HeldAccountKinds.Provider value={accountKindsOf(home.data)}>{more}</HeldAccountKinds.Provider>
        </>
      )}
    </div>
  );
}
