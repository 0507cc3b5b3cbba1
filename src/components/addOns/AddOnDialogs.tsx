import { useState } from "react";
import { useOne } from "@refinedev/core";
import { Alert, App, Input, Modal, Space, Switch, Typography } from "antd";
import { translate as t } from "../../i18n";
import { catalogName } from "../../i18n/catalogText";
import type { AddOn, LineAddOn } from "../../resources/addOns";
import type { Line } from "../../resources/lines";
import type { Account } from "../../resources/accounts";
import type { ResourceAction } from "../actions/useResourceAction";
import { formatDataMb, formatDateTime, formatMoney } from "../format";
import { TopUpHint } from "../money/TopUpHint";

// The portal's dialogs of a line's passes (Shop, the line pages): buy one, stop one's renewal.

/**
 * Confirms the price, where it is paid from (the balance or the next bill, as the line is) and the
 * auto-renew choice, then buys once (the action's Idempotency-Key holds until an answer, so a retry
 * never charges twice). A prepaid balance short of the price is said before Pay, with the way to top
 * up, instead of after (the server still decides: a balance read a moment ago may have changed).
 */
export function BuyDialog({
  buy,
  addOn,
  line,
  onClose,
}: {
  buy: ResourceAction;
  addOn: AddOn;
  line: Pick<Line, "accountId" | "accountType">;
  onClose: (bought: boolean) => void;
}) {
  const { message } = App.useApp();
  const accountType = line.accountType;
  const { result: account } = useOne<Account>({
    resource: "accounts",
    id: line.accountId,
    queryOptions: { enabled: accountType === "prepaid" },
  });
  const balance = accountType === "prepaid" ? account?.balance : undefined;
  const short =
    balance?.currency === addOn.price.currency && balance.amount < addOn.price.amount
      ? { amount: addOn.price.amount - balance.amount, currency: balance.currency }
      : undefined;
  const reasonRequired = buy.needsReason;
  const [autoRenew, setAutoRenew] = useState(false);
  const [reason, setReason] = useState("");
  const submit = async () => {
    try {
      await buy.run({ addOnId: addOn.id, autoRenew, reason });
      void message.success(t("addOns.bought", { name: catalogName(addOn) }));
      onClose(true);
    } catch {
      // The hook holds the server's words, shown in the dialog.
    }
  };
  const busy = buy.running;
  const problem = buy.problem;
  return (
    <Modal
      open
      title={t("addOns.buyTitle", { name: catalogName(addOn) })}
      okText={t(`addOns.confirmBuy.${accountType}`, { price: formatMoney(addOn.price) })}
      cancelText={t("addOns.cancel")}
      onOk={() => void submit()}
      okButtonProps={{ loading: busy, disabled: Boolean(short) || (reasonRequired && !reason.trim()) }}
      onCancel={() => onClose(false)}
    >
      <Space direction="vertical" style={{ width: "100%" }}>
        <Typography.Paragraph>
          {t(`addOns.buyDetail.${accountType}`, {
            price: formatMoney(addOn.price),
            data: formatDataMb(addOn.dataMb),
            days: addOn.validityDays,
          })}
        </Typography.Paragraph>
        <Space align="center">
          <Switch id="add-on-auto-renew" checked={autoRenew} onChange={setAutoRenew} />
          <label htmlFor="add-on-auto-renew">{t("addOns.autoRenewLabel", { days: addOn.validityDays })}</label>
        </Space>
        {reasonRequired && <ReasonField id="add-on-buy-reason" value={reason} onChange={setReason} />}
        {short && !problem && (
          <Alert
            type="warning"
            showIcon
            message={t("addOns.short", { balance: formatMoney(balance!), short: formatMoney(short) })}
          />
        )}
        {problem && <Alert type="error" showIcon message={problem} role="alert" />}
        <TopUpHint shortfall={buy.error?.shortfall ?? short} />
      </Space>
    </Modal>
  );
}

/** The reason staff give when they act for a subscriber: a labelled, required text area. */
function ReasonField({ id, value, onChange }: { id: string; value: string; onChange: (reason: string) => void }) {
  return (
    <div>
      <label htmlFor={id} style={{ display: "block", marginBottom: 4 }}>
        {t("addOns.reasonLabel")}
      </label>
      <Input.TextArea id={id} value={value} onChange={(e) => onChange(e.target.value)} rows={2} aria-required="true" />
    </div>
  );
}

/** Stops the auto-renewal of one pass; staff acting for the subscriber say why (kept in the audit trail). */
export function StopRenewalDialog({
  stop,
  purchase,
  onClose,
}: {
  stop: ResourceAction;
  purchase: LineAddOn;
  onClose: (stopped: boolean) => void;
}) {
  const { message } = App.useApp();
  const reasonRequired = stop.needsReason;
  const [reason, setReason] = useState("");
  const submit = async () => {
    try {
      await stop.run({ addOnPurchaseId: purchase.id, reason });
      void message.success(t("addOns.renewalStopped", { name: catalogName(purchase) }));
      onClose(true);
    } catch {
      // The hook holds the server's words, shown in the dialog.
    }
  };
  const busy = stop.running;
  const problem = stop.problem;
  return (
    <Modal
      open
      title={t("addOns.stopRenewalOf", { name: catalogName(purchase) })}
      okText={t("addOns.stopRenewal")}
      cancelText={t("addOns.cancel")}
      onOk={() => void submit()}
      okButtonProps={{ loading: busy, disabled: reasonRequired && !reason.trim() }}
      onCancel={() => onClose(false)}
    >
      <Space direction="vertical" style={{ width: "100%" }}>
        <Typography.Paragraph>
          {t("addOns.expiresOn", { date: formatDateTime(purchase.expiresAt) })}
        </Typography.Paragraph>
        {stop.confirmText() && <Typography.Paragraph>{stop.confirmText()}</Typography.Paragraph>}
        {reasonRequired && <ReasonField id="add-on-stop-reason" value={reason} onChange={setReason} />}
        {problem && <Alert type="error" showIcon message={problem} role="alert" />}
      </Space>
    </Modal>
  );
}
