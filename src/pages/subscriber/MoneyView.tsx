import { BillTotals } from "./BillTotals";
import type { ReactNode } from "react";
import { translate as t } from "../../i18n";
import type { Home, HomeAccount } from "../../resources/usage";
import type { Invoice } from "../../resources/invoices";
import { formatMoney } from "../../components/format";
import { PlainLink, type Navigate } from "../../components/PlainLink";
import { useLiveGet, useLiveList } from "../home/useLiveGet";
import { usePageDrawn } from "../home/pageDrawn";
import { BillSummary } from "./BillSummary";
import { Movements } from "./Movements";
import { heldUntil, useAllLoaded, useReportLoaded } from "./useAllLoaded";
import { accountKindsOf, HeldAccountKinds } from "./heldAccountKinds";
import "../home/home.css";
import "./subscriber.css";

export interface MoneyViewProps {
  navigate: Navigate;
  /** What a bill that is owed offers: the portal's Pay (button and dialog), or the light page's link to it. */
  billPay: (bill: Invoice) => ReactNode;
  /** The place's declared tasks (payment methods, every bill). */
  more: ReactNode;
}

/**
 * Money: for a prepaid account its balance, Top up and the latest movements in words; for a
 * postpaid one the amount due and its bills, each with Pay while owed. Payment methods and the full
 * lists are under More (declared `subscriberPlace: "money"`). Plain React and CSS, so the portal and
 * the light pages on a phone (main.tsx) draw the same page; its first request is GET /home (the
 * sign-in's prefetch), kept live by the ledger's events.
 */
export function MoneyView({ navigate, billPay, more }: MoneyViewProps) {
  const home = useLiveGet<Home>("/home", "ledger-entries");
  const accounts = home.data?.accounts;
  const prepaid = accounts?.filter((a) => a.type === "prepaid").length ?? 0;
  const { allLoaded, loaded } = useAllLoaded(accounts?.map((account) => account.id) ?? []);
  const drawn = usePageDrawn(Boolean(home.error || (accounts && allLoaded)));
  return (
    <div className="sub-page">
      <h1 className="sub-page__title">{t("destinations.money")}</h1>
      {home.error ? (
        <p role="alert" className="home__error">
          {t("subscriber.money.accountsError", { message: home.error })}
        </p>
      ) : !accounts ? (
        <div className="home__loading" role="status" aria-label={t("subscriber.money.loading")} />
      ) : (
        <>
          {!allLoaded && <div className="home__loading" role="status" aria-label={t("subscriber.money.loading")} />}
          <div style={heldUntil(allLoaded)}>
            {accounts.map((account) =>
              account.type === "prepaid" ? (
                <PrepaidMoney
                  key={account.id}
                  account={account}
                  many={prepaid > 1}
                  navigate={navigate}
                  loaded={loaded}
                />
              ) : (
                <PostpaidMoney
                  key={account.id}
                  account={account}
                  navigate={navigate}
                  billPay={billPay}
                  loaded={loaded}
                />
              ),
            )}
          </div>
        </>
      )}
      {drawn && <HeldAccountKinds.Provider value={accountKindsOf(home.data)}>{more}</HeldAccountKinds.Provider>}
    </div>
  );
}

/** Each card tells the page once its list is in (useAllLoaded): the page shows its cards together. */
type Loaded = (accountId: string) => void;

function PrepaidMoney({
  account,
  many,
  navigate,
  loaded,
}: {
  account: HomeAccount;
  many: boolean;
  navigate: Navigate;
  loaded: Loaded;
}) {
  return (
    <section className="sub-card" aria-labelledby={`balance-${account.id}`} data-testid="prepaid-money">
      <h2 className="sub-card__title" id={`balance-${account.id}`}>
        {t("subscriber.money.balanceTitle")}
      </h2>
      <div className="sub-card__row">
        <p className="sub-card__big">{account.balance ? formatMoney(account.balance) : "—"}</p>
        <PlainLink className="sub-button" to={many ? `/top-up?account=${account.id}` : "/top-up"} navigate={navigate}>
          {t("topUp.title")}
        </PlainLink>
      </div>
      <h3 className="sub-card__muted" style={{ fontSize: 14, margin: "16px 0 4px" }}>
        {t("subscriber.money.latest")}
      </h3>
      <Movements accountId={account.id} onLoaded={loaded} />
    </section>
  );
}

function PostpaidMoney({
  account,
  navigate,
  billPay,
  loaded,
}: {
  account: HomeAccount;
  navigate: Navigate;
  billPay: MoneyViewProps["billPay"];
  loaded: Loaded;
}) {
  const bills = useLiveList<Invoice>("invoices", {
    pageSize: 6,
    sorters: [{ field: "dueOn", order: "desc" }],
    filters: [{ field: "accountId", operator: "eq", value: account.id }],
  });
  useReportLoaded(Boolean(bills.data || bills.error), account.id, loaded);
  return (
    <section className="sub-card" aria-labelledby={`bills-${account.id}`} data-testid="postpaid-money">
      <h2 className="sub-card__title" id={`bills-${account.id}`}>
        {t("subscriber.money.billsTitle")}
      </h2>
      <p className="sub-card__big">
        {formatMoney(account.amountDue ?? { amount: 0, currency: account.balance?.currency ?? "USD" })}
      </p>
      <p className="sub-card__muted" style={{ marginTop: 0 }}>
        {t(account.amountDue?.amount ? "subscriber.money.amountDue" : "subscriber.money.nothingDue")}
      </p>
      {bills.error ? (
        <p role="alert" className="home__error">
          {t("subscriber.money.billsError", { message: bills.error })}
        </p>
      ) : !bills.data ? (
        <div className="home__loading movements__loading" role="status" aria-label={t("subscriber.money.loading")} />
      ) : (
        <>
          {bills.data.map((bill) => (
            <BillSummary key={bill.id} bill={bill} navigate={navigate} pay={billPay(bill)} />
          ))}
          <BillTotals bills={bills.data} />
        </>
      )}
    </section>
  );
}
