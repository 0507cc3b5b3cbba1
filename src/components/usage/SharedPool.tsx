import { useCustom, useSubscription } from "@refinedev/core";
import { translate as t } from "../../i18n";
import type { AccountMeters } from "../../resources/usage";
import { formatDataMb, formatMsisdn } from "../format";

/**
 * The data an account's lines share (issue 28), on the page of one of its lines: how much of the
 * pool is used and left, then each line's part with its monthly limit. Nothing when the account has
 * no line on a shared plan. Follows the meters live.
 */
export function SharedPool({ accountId, lineId }: { accountId: string; lineId: string }) {
  const { result, query } = useCustom<AccountMeters>({ url: `/accounts/${accountId}/meters`, method: "get" });
  useSubscription({ channel: "resources/meters", types: ["*"], onLiveEvent: () => void query.refetch() });
  const meters = query.isSuccess ? result.data : null;
  const pool = meters?.pool;
  if (!meters || !pool || !meters.lines.some((l) => l.lineId === lineId && l.shared)) return null;
  const usedText =
    pool.allowance === null
      ? t("usage.meter.usedUnlimited", { used: formatDataMb(pool.used) })
      : t("usage.meter.usedOf", { used: formatDataMb(pool.used), allowance: formatDataMb(pool.allowance) });
  return (
    <section className="sub-card" aria-labelledby="shared-data" data-testid="shared-pool">
      <h2 className="sub-card__title" id="shared-data">
        {t("usage.pool.title")}
      </h2>
      <p style={{ margin: 0 }} data-testid="shared-pool-used">
        {usedText}
        {pool.left !== null && ` · ${t("usage.meter.left", { left: formatDataMb(pool.left) })}`}
      </p>
      {pool.usedUp && (
        <p className="sub-card__muted" role="status" style={{ margin: 0 }}>
          {t("usage.pool.usedUp")}
        </p>
      )}
      <ul style={{ margin: "8px 0 0", paddingLeft: 18 }}>
        {meters.lines
          .filter((l) => l.shared)
          .map((l) => (
            <li key={l.lineId} data-testid="shared-pool-line">
              {t("usage.pool.linePart", { number: formatMsisdn(l.msisdn), used: formatDataMb(l.used) })}
              {l.cap !== null && ` · ${t("usage.pool.lineCap", { cap: formatDataMb(l.cap) })}`}
              {l.capped && ` · ${t("usage.pool.lineStopped")}`}
            </li>
          ))}
      </ul>
    </section>
  );
}
