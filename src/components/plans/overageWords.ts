import { translate as t } from "../../i18n";
import type { Plan } from "../../resources/plans";
import type { Overage, TypeRates, UsageKind } from "../../resources/overage";
import { OVERAGE_ZONES } from "../../resources/overageZones";
import { formatDataMb, formatMoney, formatQuantity } from "../format";

// A plan's rates past its allowance in words (issue 24): "then $0.01/MB", "data stops at 15 GB".
// Shared by the plan cards (shop) and the catalog's record page.

/** One type's rate as people read a price: "$0.01/MB", "$10.00/GB", "$0.10/min", "$0.05/text". */
export function rateWords(type: UsageKind, rates: TypeRates): string | null {
  const rate = rates[type];
  if (!rate) return null;
  const price = formatMoney(rate.price);
  if (type === "data") {
    const unitMb = (rate as { unitMb: number }).unitMb;
    if (unitMb === 1) return t("overage.perMb", { price });
    if (unitMb === 1024) return t("overage.perGb", { price });
    return t("overage.perUnit", { price, size: formatDataMb(unitMb) });
  }
  return t(type === "voice" ? "overage.perMinute" : "overage.perText", { price });
}

const allowanceOf = (plan: Pick<Plan, "dataMb" | "voiceMinutes" | "sms">, type: UsageKind) =>
  type === "data" ? plan.dataMb : type === "voice" ? plan.voiceMinutes : plan.sms;

/** What happens past one allowance: "then $0.01/MB" or "data stops at 15 GB"; null when the allowance is unlimited. */
export function pastAllowanceWords(
  plan: Pick<Plan, "dataMb" | "voiceMinutes" | "sms" | "overage">,
  type: UsageKind,
): string | null {
  const allowance = allowanceOf(plan, type);
  if (allowance === null) return null;
  const rate = plan.overage ? rateWords(type, plan.overage) : null;
  if (rate) return t("overage.then", { rate });
  const amount =
    type === "data"
      ? formatDataMb(allowance)
      : type === "voice"
        ? formatQuantity(allowance, "units.minutes")
        : t("usage.meter.messages", { value: formatQuantity(allowance, "units.texts") });
  return t(`overage.stops.${type}`, { allowance: amount });
}

/** Rates abroad, one sentence per zone that has any: "In Europe past the allowance: $0.05/MB, $0.50/min". */
export function roamingWords(plan: Pick<Plan, "overage">): string[] {
  const overage: Overage | null = plan.overage;
  if (!overage) return [];
  return OVERAGE_ZONES.flatMap((zone) => {
    const rates = overage.roaming?.[zone];
    const words = rates
      ? (["data", "voice", "sms"] as const).map((type) => rateWords(type, rates)).filter((w): w is string => !!w)
      : [];
    return words.length
      ? [t("overage.roaming", { zone: t(`enums.roamingZone.${zone}`, undefined, zone), rates: words.join(", ") })]
      : [];
  });
}

/** The whole overage of a plan as one text (the catalog's record page, CSV exports). */
export function overageText(plan: Pick<Plan, "dataMb" | "voiceMinutes" | "sms" | "overage">): string {
  const home = (["data", "voice", "sms"] as const).flatMap((type) => {
    const words = pastAllowanceWords(plan, type);
    return words ? [`${t(`usage.meter.${type}`)}: ${words}`] : [];
  });
  const all = [...home, ...roamingWords(plan)];
  return all.length ? all.join(" · ") : t("overage.none");
}
