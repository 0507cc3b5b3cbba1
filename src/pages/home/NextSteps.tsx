import { translate as t } from "../../i18n";
import type { Home } from "../../resources/usage";
import { formatDate, formatMoney, formatMsisdn } from "../../components/format";
import { PlainLink, type Navigate } from "../../components/PlainLink";

/** One thing the home asks the person to do now, with the one button that does it. */
export interface NextStep {
  key: string;
  tone: "bad" | "warning";
  text: string;
  action: string;
  to: string;
}

/** Share of an allowance past which the home offers more data. */
const NEARLY_USED = 0.8;

/**
 * What needs doing, most urgent first: an overdue bill (Pay now), a prepaid line in grace (Top up,
 * with the amount missing and until when), a prepaid balance short of the next renewal (Top up, with
 * the amount missing), a data allowance nearly or wholly used (Buy data).
 * Derived from GET /home alone, so the light home shows it before the portal's code has run.
 */
export function nextStepsOf(home: Home): NextStep[] {
  const steps: NextStep[] = [];
  for (const account of home.accounts) {
    const bill = account.overdueBill;
    if (bill)
      steps.push({
        key: `pay-${bill.id}`,
        tone: "bad",
        text: t("home.next.overdue", { amount: formatMoney(bill.total), date: formatDate(bill.dueOn) }),
        action: t("home.next.payNow"),
        to: `/money?pay=${bill.id}`,
      });
  }
  for (const line of home.lines) {
    // A prepaid line in grace: its plan waits for a top-up that covers it, until the grace ends.
    const account = home.accounts.find((a) => a.id === line.accountId);
    const price = line.grace?.price;
    if (!line.grace || !price || !account?.balance) continue;
    const missing = price.amount - account.balance.amount;
    if (missing <= 0) continue;
    const amount = formatMoney({ amount: missing, currency: price.currency });
    steps.push({
      key: `grace-${line.id}`,
      tone: "bad",
      text: t("home.next.grace", { amount, msisdn: formatMsisdn(line.msisdn), date: formatDate(line.grace.endsOn) }),
      action: t("home.next.topUp"),
      to: "/top-up",
    });
  }
  for (const account of home.accounts) {
    if (!account.balance) continue;
    // A line whose cancellation is scheduled ends with its cycle: it does not renew.
    const renewing = home.lines.filter(
      (line) => line.accountId === account.id && line.status === "active" && !line.cancelsOn,
    );
    const price = renewing.reduce((sum, line) => sum + (line.plan.price?.amount ?? 0), 0);
    const missing = price - account.balance.amount;
    if (renewing.length === 0 || missing <= 0) continue;
    const renewsOn = renewing
      .map((line) => line.renewsOn ?? line.meters[0]?.cycleEnd)
      .filter(Boolean)
      .sort()[0];
    const amount = formatMoney({ amount: missing, currency: account.balance.currency });
    steps.push({
      key: `top-up-${account.id}`,
      tone: "warning",
      text: renewsOn
        ? t("home.next.shortOn", { amount, date: formatDate(renewsOn) })
        : t("home.next.short", { amount }),
      action: t("home.next.topUp"),
      to: "/top-up",
    });
  }
  for (const line of home.lines) {
    // Only a working line is offered more data (a line in grace or suspended buys no add-on).
    if (line.status !== "active") continue;
    const data = line.meters.find((meter) => meter.type === "data");
    if (!data || data.allowance === null || data.used < data.allowance * NEARLY_USED) continue;
    const all = data.used >= data.allowance;
    steps.push({
      key: `data-${line.id}`,
      tone: all ? "bad" : "warning",
      text: t(all ? "home.next.dataGone" : "home.next.dataLow", {
        msisdn: formatMsisdn(line.msisdn),
        percent: Math.floor((data.used / data.allowance) * 100),
      }),
      action: t("home.next.buyData"),
      to: `/shop?line=${line.id}`,
    });
  }
  return steps;
}

/** The home's next steps, above the lines; nothing when all is well. */
export function NextSteps({ home, navigate }: { home: Home; navigate: Navigate }) {
  const steps = nextStepsOf(home);
  if (!steps.length) return null;
  return (
    <section aria-label={t("home.next.label")} className="next-steps">
      {steps.map((step) => (
        <div key={step.key} className={`next-step next-step--${step.tone}`} data-testid="next-step">
          <p>{step.text}</p>
          <PlainLink
            to={step.to}
            navigate={navigate}
            className={step.tone === "bad" ? "sub-button sub-button--danger" : "sub-button"}
          >
            {step.action}
          </PlainLink>
        </div>
      ))}
    </section>
  );
}
