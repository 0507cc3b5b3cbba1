import type { ReactNode } from "react";
import { translate as t } from "../../i18n";
import { catalogName } from "../../i18n/catalogText";
import type { AddOn, LineAddOn } from "../../resources/addOns";
import { formatDataMb, formatDateTime, formatMoney } from "../format";
import "../plans/plans.css";
import "../../pages/home/home.css";
import "../../pages/subscriber/subscriber.css";

/** A pass's kind in words: "Roaming · Europe", "Data". */
export const addOnKindWords = (addOn: Pick<AddOn, "kind" | "roamingZone">) =>
  addOn.kind === "roaming" && addOn.roamingZone
    ? `${t("enums.addOnKind.roaming")} · ${t(`enums.roamingZone.${addOn.roamingZone}`)}`
    : t(`enums.addOnKind.${addOn.kind}`);

/**
 * What a line has now (each pass with when it renews or ends, and `stop` where its renewal may be
 * stopped). Plain React and CSS, for Shop on a phone before the portal loads.
 */
export function ActiveAddOns({
  active,
  error,
  stop,
}: {
  active: readonly LineAddOn[] | undefined;
  error?: string;
  stop: (purchase: LineAddOn, name: string) => ReactNode;
}) {
  return (
    <section className="sub-card" aria-labelledby="line-add-ons-title" id="line-add-ons">
      <h2 className="sub-card__title" id="line-add-ons-title">
        {t("addOns.activeTitle")}
      </h2>
      {error ? (
        <p role="alert" className="home__error">
          {error}
        </p>
      ) : !active ? (
        <div className="home__loading" role="status" aria-label={t("addOns.activeTitle")} />
      ) : active.length === 0 ? (
        <p className="sub-card__muted" style={{ margin: 0 }}>
          {t("addOns.noneActive")}
        </p>
      ) : (
        <ul className="task-list">
          {active.map((purchase) => {
            const name = catalogName(purchase);
            return (
              <li key={purchase.id} className="task-list__item" data-testid="active-add-on">
                <span className="task-list__text">
                  <strong>{name}</strong>
                  <span className="task-list__about">
                    {formatDataMb(purchase.dataMb)} ·{" "}
                    {purchase.autoRenew
                      ? t("addOns.renewsOn", { date: formatDateTime(purchase.expiresAt) })
                      : t("addOns.expiresOn", { date: formatDateTime(purchase.expiresAt) })}
                  </span>
                </span>
                {purchase.autoRenew && stop(purchase, name)}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** The passes on sale, each with its price and `buy`. */
export function PassesOnSale({
  passes,
  buy,
}: {
  passes: readonly AddOn[];
  buy: (addOn: AddOn, name: string) => ReactNode;
}) {
  if (!passes.length) return null;
  return (
    <section aria-labelledby="add-ons-on-sale">
      <h2 className="sub-page__subtitle" id="add-ons-on-sale">
        {t("addOns.onSaleTitle")}
      </h2>
      <ul className="plan-cards">
        {passes.map((addOn) => {
          const name = catalogName(addOn);
          return (
            <li key={addOn.id} className="plan-card" data-testid="add-on-card" aria-label={name}>
              <div className="plan-card__head">
                <h3 className="plan-card__name">{name}</h3>
                <strong>{formatMoney(addOn.price)}</strong>
              </div>
              <p className="plan-card__line">
                <span className="plan-card__tag">{addOnKindWords(addOn)}</span>{" "}
                <span className="sub-card__muted">
                  {formatDataMb(addOn.dataMb)} · {t("addOns.validDays", { days: addOn.validityDays })}
                </span>
              </p>
              {buy(addOn, name)}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
