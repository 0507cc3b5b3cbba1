import { translate as t } from "../../i18n";
import type { LedgerEntry } from "../../resources/ledgerEntries";
import { signOf } from "../../resources/ledgerKinds";
import { formatDate, formatMoney } from "../../components/format";
import { useLiveList } from "../home/useLiveGet";
import { useReportLoaded } from "./useAllLoaded";
import "../home/home.css";
import "./subscriber.css";

/** What a movement was, in words: by what it came from (a voucher, a card top-up, a bill), else by its kind. */
export function movementLabel(entry: Pick<LedgerEntry, "kind" | "referenceType">): string {
  return t(`subscriber.movement.${entry.referenceType ?? ""}`, undefined, t(`enums.ledgerKind.${entry.kind}`));
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
