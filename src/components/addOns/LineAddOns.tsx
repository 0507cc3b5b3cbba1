import { useState } from "react";
import { useCustom, useList, useSubscription } from "@refinedev/core";
import type { AddOn, LineAddOn } from "../../resources/addOns";
import { linesResource, type Line } from "../../resources/lines";
import { translate as t } from "../../i18n";
import { useResourceAction } from "../actions/useResourceAction";
import { ActiveAddOns, PassesOnSale } from "./AddOnCards";
import { BuyDialog, StopRenewalDialog } from "./AddOnDialogs";

/**
 * The add-ons of one line on the portal's line pages (the subscriber's and staff's): what it has now
 * (with "stop renewal"), and where the page sells them the passes on sale, each bought through a dialog
 * that states the price and the auto-renew choice. Buying and stopping a renewal are the line's
 * declared actions: whether they are offered (access, `when`), the reason staff give and the
 * confirmation come from the declaration.
 */
export function LineAddOns({
  line,
  offersPasses,
}: {
  /** The line as the page has it (the record, or the home's line): its state decides what is offered. */
  line: Pick<Line, "id" | "status" | "msisdn" | "accountId" | "accountType">;
  /** Whether this page sells passes (the subscriber's line page only lists what the line has). */
  offersPasses: boolean;
}) {
  const lineId = line.id;
  const buy = useResourceAction(linesResource, "buy-add-on", line);
  const stop = useResourceAction(linesResource, "stop-add-on-renewal", line);
  const [buying, setBuying] = useState<AddOn | null>(null);
  const [stopping, setStopping] = useState<LineAddOn | null>(null);
  const { result: catalog } = useList<AddOn>({
    resource: "add-ons",
    pagination: { pageSize: 50 },
    filters: [{ field: "status", operator: "eq", value: "active" }],
    queryOptions: { enabled: offersPasses },
  });
  const { result, query } = useCustom<LineAddOn[]>({ url: `/lines/${lineId}/add-ons`, method: "get" });
  const load = () => void query.refetch();
  useSubscription({ channel: "resources/meters", types: ["*"], onLiveEvent: load });

  return (
    <div className="sub-page" style={{ marginTop: 16 }}>
      <ActiveAddOns
        active={query.isSuccess ? result.data : undefined}
        error={query.error?.message}
        stop={(purchase, name) =>
          stop.available && (
            <button
              type="button"
              className="sub-button sub-button--quiet"
              onClick={() => setStopping(purchase)}
              aria-label={t("addOns.stopRenewalOf", { name })}
            >
              {t("addOns.stopRenewal")}
            </button>
          )
        }
      />
      {offersPasses && buy.available && (
        <PassesOnSale
          passes={catalog?.data ?? []}
          buy={(addOn, name) => (
            <button
              type="button"
              className="sub-button"
              onClick={() => setBuying(addOn)}
              aria-label={t("addOns.buyNamed", { name })}
            >
              {t("addOns.buy")}
            </button>
          )}
        />
      )}
      {stopping && (
        <StopRenewalDialog
          stop={stop}
          purchase={stopping}
          onClose={(stopped) => {
            stop.reset();
            setStopping(null);
            if (stopped) load();
          }}
        />
      )}
      {buying && (
        <BuyDialog
          buy={buy}
          addOn={buying}
          line={line}
          onClose={(bought) => {
            buy.reset();
            setBuying(null);
            if (bought) load();
          }}
        />
      )}
    </div>
  );
}
