import type { ReactNode } from "react";
import { translate as t } from "../../i18n";
import { catalogFeatures, catalogName } from "../../i18n/catalogText";
import type { Plan } from "../../resources/plans";
import { formatDataMb, formatMoney, formatQuantity } from "../format";
import { pastAllowanceWords, roamingWords } from "./overageWords";
import "./plans.css";
import "../../pages/home/home.css";

/**
 * Plans as cards to compare side by side (one column at 360 px): price, allowances with what happens
 * past them, roaming rates and features in words, the line's current plan marked. Plain React and CSS,
 * so Shop draws them on a phone before the portal loads; `offer` is what choosing one does where they
 * are drawn (a link into Shop's plan change, or the staff page's dialog).
 */
export function PlanCards({
  plans,
  currentPlanId,
  offer,
}: {
  plans: readonly Plan[];
  currentPlanId: string | undefined;
  offer: (plan: Plan, name: string) => ReactNode;
}) {
  return (
    <ul className="plan-cards">
      {plans.map((plan) => {
        const current = plan.id === currentPlanId;
        const name = catalogName(plan);
        const features = catalogFeatures(plan);
        return (
          <li key={plan.id} className="plan-card" data-testid="plan-card" aria-label={name}>
            <div className="plan-card__head">
              <h3 className="plan-card__name">{name}</h3>
              {current && <span className="plan-card__tag plan-card__tag--current">{t("plans.current")}</span>}
            </div>
            <p className="plan-card__price" data-testid="plan-price">
              {t(plan.sharing === "pool" ? "plans.perLinePerMonth" : "units.perMonth", {
                price: formatMoney(plan.price),
              })}
            </p>
            {plan.sharing === "pool" && (
              <p className="plan-card__line" data-testid="plan-shared">
                {t("plans.sharedData", { data: formatDataMb(plan.dataMb) })}
              </p>
            )}
            <dl className="plan-card__allowances">
              <Allowance
                label={t("usage.meter.data")}
                value={formatDataMb(plan.dataMb)}
                past={pastAllowanceWords(plan, "data")}
              />
              <Allowance
                label={t("usage.meter.voice")}
                value={formatQuantity(plan.voiceMinutes, "units.minutes")}
                past={pastAllowanceWords(plan, "voice")}
              />
              <Allowance
                label={t("usage.meter.sms")}
                value={formatQuantity(plan.sms, "units.texts")}
                past={pastAllowanceWords(plan, "sms")}
              />
            </dl>
            {roamingWords(plan).map((words) => (
              <p key={words} className="plan-card__line plan-card__line--muted" data-testid="plan-roaming-rates">
                {words}
              </p>
            ))}
            {features.length > 0 && (
              <ul className="plan-card__features" aria-label={t("plans.features")}>
                {features.map((feature) => (
                  <li key={feature} className="plan-card__tag">
                    {feature}
                  </li>
                ))}
              </ul>
            )}
            {!current && offer(plan, name)}
          </li>
        );
      })}
    </ul>
  );
}

function Allowance({ label, value, past }: { label: string; value: string; past: string | null }) {
  return (
    <div className="plan-card__allowance">
      <dt>{label}</dt>
      <dd>
        <strong>{value}</strong>
        {past && (
          <span className="plan-card__past" data-testid="plan-overage">
            {past}
          </span>
        )}
      </dd>
    </div>
  );
}
