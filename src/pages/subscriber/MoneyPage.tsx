import { useCustom, useList } from "@refinedev/core";
import { Button, Skeleton } from "antd";
import { useNavigate, useSearchParams } from "react-router";
import { translate as t } from "../../i18n";
import type { Home, HomeAccount } from "../../resources/usage";
import type { Invoice } from "../../resources/invoices";
import { formatMoney } from "../../components/format";
import { BillRow } from "./BillRow";
import { DestinationMore } from "./DestinationMore";
import { Movements } from "./Movements";
import "./subscriber.css";

/**
 * Money: for a prepaid account its balance, Top up and the latest movements in words; for a
 * postpaid one the amount due and its bills, each with Pay while owed. Payment methods and the full
 * lists are under More (declared `subscriberPlace: "money"`).
 */
export function MoneyPage() {
  const { result, query } = useCustom<Home>({ url: "/home", method: "get" });
  const accounts = result.data?.accounts;
  return (
    <div className="sub-page">
      <h1 className="sub-page__title">{t("destinations.money")}</h1>
      {!accounts ? (
        query.isError ? (
          <p role="alert">{query.error?.message}</p>
        ) : (
          <Skeleton active />
        )
      ) : (
        accounts.map((account) =>
          account.type === "prepaid" ? (
            <PrepaidMoney
              key={account.id}
              account={account}
              prepaidCount={accounts.filter((a) => a.type === "prepaid").length}
            />
          ) : (
            <PostpaidMoney key={account.id} account={account} />
          ),
        )
      )}
      <DestinationMore place="money" />
    </div>
  );
}

function PrepaidMoney({ account, prepaidCount }: { account: HomeAccount; prepaidCount: number }) {
  const navigate = useNavigate();
  return (
    <section className="sub-card" aria-labelledby={`balance-${account.id}`} data-testid="prepaid-money">
      <h2 className="sub-card__title" id={`balance-${account.id}`}>
        {t("subscriber.money.balanceTitle")}
      </h2>
      <div className="sub-card__row">
        <p className="sub-card__big">{account.balance ? formatMoney(account.balance) : "—"}</p>
        <Button
          type="primary"
          size="large"
          onClick={() => void navigate(prepaidCount > 1 ? `/top-up?account=${account.id}` : "/top-up")}
        >
          {t("topUp.title")}
        </Button>
      </div>
      <h3 className="sub-card__muted" style={{ fontSize: 14, margin: "16px 0 4px" }}>
        {t("subscriber.money.latest")}
      </h3>
      <Movements accountId={account.id} />
    </section>
  );
}

function PostpaidMoney({ account }: { account: HomeAccount }) {
  const { result, query } = useList<Invoice>({
    resource: "invoices",
    pagination: { pageSize: 6 },
    sorters: [{ field: "dueOn", order: "desc" }],
    filters: [{ field: "accountId", operator: "eq", value: account.id }],
  });
  const bills = result.data;
  const [search] = useSearchParams();
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
      {query.isLoading ? (
        <Skeleton active />
      ) : (
        bills.map((bill) => <BillRow key={bill.id} bill={bill} payNow={search.get("pay") === bill.id} />)
      )}
    </section>
  );
}
