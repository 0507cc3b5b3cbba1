import type { ReactNode } from "react";
import { translate as t } from "../../i18n";
import type { Home, HomeLine } from "../../resources/usage";
import type { Plan } from "../../resources/plans";
import type { AddOn, LineAddOn } from "../../resources/addOns";
import { shopsFor, spendsFor } from "../../resources/lineShopping";
import { formatMsisdn } from "../../components/format";
import type { Navigate } from "../../components/PlainLink";
import { PlanCards } from "../../components/plans/PlanCards";
import { ActiveAddOns, PassesOnSale } from "../../components/addOns/AddOnCards";
import { useLiveGet, useLiveList } from "../home/useLiveGet";
import { usePageDrawn } from "../home/pageDrawn";
import { heldUntil, useAllLoaded, useReportLoaded } from "./useAllLoaded";
import "../home/home.css";
import "./subscriber.css";
import { accountKindsOf, HeldAccountKinds } from "./heldAccountKinds";

export interface ShopViewProps {
  navigate: Navigate;
  /** The line asked for (`?line=`: the home's Buy data names it); else the first. */
  lineId?: string;
  /** The portal's dialogs (plan change, buy, stop renewal, add a line) for the line shown, opened by the address. */
  dialogs?: (line: HomeLine | undefined) => ReactNode;
  /** Add a line (AddLineCard). */
  addLine?: ReactNode;
  /** The place's declared tasks. */
  more: ReactNode;
}

/** Where a choice in Shop leads: the same page with the dialog that does it open (the portal's). */
export const shopPath = (lineId: string, open?: { plan?: string; buy?: string; stop?: string }) =>
  `/shop?${new URLSearchParams({ line: lineId, ...open }).toString()}`;

/**
 * Shop: for one line at a time (a picker when there are several), the plans it can move to and the
 * passes it can buy, and what it has now. Plain React and CSS, so the portal and the light pages on a
 * phone draw the same page; a choice (a plan, a pass, stopping a renewal) is an address, `shopPath`,
 * whose dialog the portal opens: the declared change-plan, buy-add-on and stop-add-on-renewal with
 * their quotes. Its first request is GET /home (the sign-in's prefetch).
 */
export function ShopView({ navigate, lineId, dialogs, addLine, more }: ShopViewProps) {
  // A plan change is a line's event; a pass bought or used up, the meters'.
  const home = useLiveGet<Home>("/home", ["meters", "lines"]);
  const lines = home.data?.lines;
  const line = lines?.find((l) => l.id === lineId) ?? lines?.[0];
  // The line's plans, passes and add-ons come in three answers: shown together (useAllLoaded).
  const { allLoaded, loaded } = useAllLoaded(line ? [line.id] : []);
  const drawn = usePageDrawn(Boolean(home.error || (lines && allLoaded)));
  return (
    <div className="sub-page">
      <h1 className="sub-page__title">{t("destinations.shop")}</h1>
      {home.error ? (
        <p role="alert" className="home__error">
          {home.error}
        </p>
      ) : !lines ? (
        <div className="home__loading" role="status" aria-label={t("subscriber.shop.loading")} />
      ) : (
        <>
          {lines.length > 1 && line && (
            <div role="group" aria-labelledby="shop-for-line">
              <p className="sub-card__muted" style={{ margin: 0 }} id="shop-for-line">
                {t("subscriber.shop.forLine")}
              </p>
              <ul className="line-picker">
                {lines.map((l) => (
                  <li key={l.id}>
                    <button
                      type="button"
                      className="line-picker__button"
                      aria-pressed={l.id === line.id}
                      onClick={() => navigate(shopPath(l.id))}
                    >
                      {formatMsisdn(l.msisdn)}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {line && !allLoaded && (
            <div className="home__loading" role="status" aria-label={t("subscriber.shop.loading")} />
          )}
          <div style={heldUntil(allLoaded)}>
            {line && <LineShop key={line.id} line={line} navigate={navigate} loaded={loaded} />}
          </div>
          {dialogs?.(line)}
        </>
      )}
      {drawn && (
        <>
          {addLine}
          <HeldAccountKinds.Provider value={accountKindsOf(home.data)}>{more}</HeldAccountKinds.Provider>
        </>
      )}
    </div>
  );
}

/** One line's plans, passes and add-ons, each choice a button that opens its dialog (`shopPath`). */
function LineShop({
  line,
  navigate,
  loaded,
}: {
  line: HomeLine;
  navigate: Navigate;
  loaded: (lineId: string) => void;
}) {
  const shops = shopsFor(line);
  const plans = useLiveList<Plan>("plans", {
    pageSize: 50,
    sorters: [{ field: "price", order: "asc" }],
    filters: [
      { field: "status", operator: "eq", value: "active" },
      { field: "kind", operator: "eq", value: line.accountType },
    ],
  });
  const passes = useLiveList<AddOn>("add-ons", {
    pageSize: 50,
    filters: [{ field: "status", operator: "eq", value: "active" }],
  });
  const active = useLiveGet<LineAddOn[]>(`/lines/${line.id}/add-ons`, "meters");
  const answered = (list: { data?: unknown; error?: string }) => Boolean(list.data || list.error);
  useReportLoaded(answered(plans) && answered(passes) && answered(active), line.id, loaded);
  /** A choice: a button (it opens a dialog) whose words are short and whose name says what it is for. */
  const offer = (text: string, name: string, to: string, quiet = false) => (
    <button
      type="button"
      className={quiet ? "sub-button sub-button--quiet" : "sub-button"}
      aria-label={name}
      onClick={() => navigate(to)}
    >
      {text}
    </button>
  );
  return (
    <>
      {shops && !!plans.data?.length && (
        <section aria-labelledby="plan-catalog">
          <h2 className="sub-page__subtitle" id="plan-catalog">
            {t("plans.catalogTitle")}
          </h2>
          <PlanCards
            plans={plans.data}
            currentPlanId={line.plan.id}
            offer={(plan, name) =>
              offer(t("plans.choose"), t("plans.chooseNamed", { name }), shopPath(line.id, { plan: plan.id }), true)
            }
          />
        </section>
      )}
      <ActiveAddOns
        active={active.data}
        error={active.error}
        stop={(purchase, name) =>
          spendsFor(line) &&
          offer(
            t("addOns.stopRenewal"),
            t("addOns.stopRenewalOf", { name }),
            shopPath(line.id, { stop: purchase.id }),
            true,
          )
        }
      />
      {shops && (
        <PassesOnSale
          passes={passes.data ?? []}
          buy={(addOn, name) =>
            offer(t("addOns.buy"), t("addOns.buyNamed", { name }), shopPath(line.id, { buy: addOn.id }))
          }
        />
      )}
    </>
  );
}
