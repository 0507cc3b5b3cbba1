import { useList } from "@refinedev/core";
import { Skeleton } from "antd";
import { translate as t } from "../../i18n";
import { signOf, type LedgerEntry } from "../../resources/ledgerEntries";
import { formatDate, formatMoney } from "../../components/format";

/** What a movement was, in words: by what it came from (a voucher, a card top-up, a bill), else by its kind. */
export function movementLabel(entry: Pick<LedgerEntry, "kind" | "referenceType">): string {
  return t(`subscriber.movement.${entry.referenceType ?? ""}`, undefined, t(`enums.ledgerKind.${entry.kind}`));
}

/** An account's latest money movements: "Voucher +$25.00", newest first. */
export function Movements({ accountId, count = 5 }: { accountId: string; count?: number }) {
  const { result, query } = useList<LedgerEntry>({
    resource: "ledger-entries",
    pagination: { pageSize: count },
    sorters: [{ field: "createdAt", order: "desc" }],
    filters: [{ field: "accountId", operator: "eq", value: accountId }],
  });
  if (query.isLoading) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (!result.data.length) return <p className="sub-card__muted">{t("subscriber.money.noMovements")}</p>;
  return (
    <ul className="movement-list" data-testid="movements">
      {result.data.map((entry) => {
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
