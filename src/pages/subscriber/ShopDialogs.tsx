import { useCustom, useOne } from "@refinedev/core";
import { accountsResource, type Account } from "../../resources/accounts";
import type { AddOn, LineAddOn } from "../../resources/addOns";
import { linesResource } from "../../resources/lines";
import type { ActionSpec } from "../../resources/define";
import type { HomeLine } from "../../resources/usage";
import { LazyActionDialog } from "../../components/actions/LazyActionDialog";
import { useResourceAction } from "../../components/actions/useResourceAction";
import { BuyDialog, StopRenewalDialog } from "../../components/addOns/AddOnDialogs";
import { accountWords } from "./AddLineCard";

const changePlan = linesResource.actions!["change-plan"] as ActionSpec;
const addLine = accountsResource.actions!["add-line"] as ActionSpec;

/**
 * Shop's dialogs inside the portal, opened by the address (ShopView's `shopPath`, AddLineCard's
 * `addLinePath`), so a choice made on the light page on a phone opens the same dialog once the portal
 * takes over: `plan` (the declared change-plan with that plan picked), `buy` (a pass), `stop` (a
 * pass's renewal), `add-line` (a line on that account). Closing one goes back to the line's Shop.
 */
export function ShopDialogs({
  line,
  search,
  close,
}: {
  line: HomeLine | undefined;
  search: URLSearchParams;
  close: () => void;
}) {
  const plan = search.get("plan");
  const buyId = search.get("buy");
  const stopId = search.get("stop");
  const accountId = search.get("add-line");
  // A line as the declared actions read it: its status (`when`), number (title) and kind and plan (the plan picker).
  const record = line ? { ...line, planId: line.plan.id } : { id: "" };
  const buy = useResourceAction(linesResource, "buy-add-on", record);
  const stop = useResourceAction(linesResource, "stop-add-on-renewal", record);
  const { result: addOn } = useOne<AddOn>({
    resource: "add-ons",
    id: buyId ?? "",
    queryOptions: { enabled: Boolean(buyId && line) },
  });
  const { result: active } = useCustom<LineAddOn[]>({
    url: `/lines/${line?.id}/add-ons`,
    method: "get",
    queryOptions: { enabled: Boolean(stopId && line) },
  });
  const purchase = stopId ? active?.data?.find((p) => p.id === stopId) : undefined;
  const { result: account } = useOne<Account>({
    resource: "accounts",
    id: accountId ?? "",
    queryOptions: { enabled: Boolean(accountId) },
  });
  return (
    <>
      {line && (
        <LazyActionDialog
          resource={linesResource}
          name="change-plan"
          action={changePlan}
          record={record}
          open={Boolean(plan)}
          preset={plan ? { planId: plan } : undefined}
          onClose={close}
        />
      )}
      {line && buyId && addOn?.id === buyId && (
        <BuyDialog
          buy={buy}
          addOn={addOn}
          line={line}
          onClose={() => {
            buy.reset();
            close();
          }}
        />
      )}
      {line && purchase && (
        <StopRenewalDialog
          stop={stop}
          purchase={purchase}
          onClose={() => {
            stop.reset();
            close();
          }}
        />
      )}
      {account && (
        <LazyActionDialog
          resource={accountsResource}
          name="add-line"
          action={addLine}
          record={account}
          object={accountWords(account)}
          open={Boolean(accountId) && account.id === accountId}
          onClose={close}
        />
      )}
    </>
  );
}
