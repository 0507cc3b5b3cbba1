import { translate as t } from "../../i18n";
import type { LedgerEntry } from "../../resources/ledgerEntries";
import { signOf } from "../../resources/ledgerKinds";
import { formatDate, formatMoney } from "../../components/format";
import { useLiveList } from "../home/useLiveGet";
import { useReportLoaded } from "./useAllLoaded";
import "../home/home.css";
import "./subscriber.css";

/**
 * A pass is bought through an order, as a plan change is (server/domain/addOns/purchases.ts): its
 * entry is told apart by the reason the purchase posts ("Add-on 1 GB data pass on +1202…").
 */
const PASS_BOUGHT = /^Add-on .+ on \S+$/;

/** What a movement was, in words: by what it came from (a voucher, a card top-up, a bill), else by its kind. */
export function movementLabel(entry: Pick<LedgerEntry, "kind" | "referenceType" | "reason">): string {
  const from =
    entry.referenceType === "order" && PASS_BOUGHT.test(entry.reason) ? "add_on_purchase" : (entry.referenceType ?? "");
  return t(`subscriber.movement.${from}`, undefined, t(`enums.ledgerKind.${entry.kind}`));
}

/** An account's latest money movements: "Voucher +$25.00", newest first, kept current as money moves. */
export function Movements({
  accountId,
  count = 5,
  onLoaded,
}: {
  accountId: string;
  count?: number;
  /** Told (with the account's id) once the movements or their error are in: the page shows its cards together. */
  onLoaded?: (accountId: string) => void;
}) {
  const entries = useLiveList<LedgerEntry>("ledger-entries", {
    pageSize: count,
    sorters: [{ field: "createdAt", order: "desc" }],
    filters: [{ field: "accountId", operator: "eq", value: accountId }],
  });
  useReportLoaded(Boolean(entries.data || entries.error), accountId, onLoaded);
  if (entries.error)
    return (
      <p role="alert" className="home__error">
        {t("subscriber.money.movementsError", { message: entries.error })}
      </p>
    );
  if (!entries.data)
    return (
      <div className="home__loading movements__loading" role="status" aria-label={t("subscriber.money.loading")} />
    );
  if (!entries.data.length) return <p className="sub-card__muted">{t("subscriber.money.noMovements")}</p>;
  return (
    <ul className="movement-list" data-testid="movements">
      {entries.data.map((entry) => {
        const credit = signOf(entry.kind) > 0;
        return (
          <li key={entry.id}>
            <span>
              {movementLabel(entry)}
              <span className="sub-card__muted"> · {formatDate(entry.createdAt.slice(0, 10))}</span>
            </span>
            <span className={credit ? "movement-list__credit" : "movement-list__debit"}>
              {credit ? "+" : "−"}
              {formatMoney(entry.amount)}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
