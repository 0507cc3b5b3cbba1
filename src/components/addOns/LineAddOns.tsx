import { useState } from "react";
import { useCustom, useList, useSubscription } from "@refinedev/core";
import { Alert, App, Button, Card, Empty, Input, List, Modal, Space, Switch, Tag, Typography } from "antd";
import { translate as t } from "../../i18n";
import { catalogName } from "../../i18n/catalogText";
import type { AddOn, LineAddOn } from "../../resources/addOns";
import { linesResource, type Line } from "../../resources/lines";
import { useResourceAction, type ResourceAction } from "../actions/useResourceAction";
import { formatDataMb, formatDateTime, formatMoney } from "../format";

const kindLabel = (addOn: Pick<AddOn, "kind" | "roamingZone">) =>
  addOn.kind === "roaming" && addOn.roamingZone
    ? `${t("enums.addOnKind.roaming")} · ${t(`enums.roamingZone.${addOn.roamingZone}`)}`
    : t(`enums.addOnKind.${addOn.kind}`);

/**
 * The add-ons of one line, phone first (360 px): what it has now (with "stop renewal"), and the
 * passes on sale as cards, each bought through a dialog that states the price and the auto-renew choice.
 * Buying and stopping a renewal are the line's declared actions: whether they are offered (access,
 * `when`), the reason staff give and the confirmation come from the declaration.
 */
export function LineAddOns({
  line,
  offersPasses,
}: {
  /** The line as the page has it (the record, or the home's line): its state decides what is offered. */
  line: Pick<Line, "id" | "status" | "msisdn">;
  /** Whether this page sells passes (the subscriber's line page only lists what the line has). */
  offersPasses: boolean;
}) {
  const lineId = line.id;
  const buy = useResourceAction(linesResource, "buy-add-on", line);
  const stop = useResourceAction(linesResource, "stop-add-on-renewal", line);
  const [buying, setBuying] = useState<AddOn | null>(null);
  const { result: catalog } = useList<AddOn>({
    resource: "add-ons",
    pagination: { pageSize: 50 },
    filters: [{ field: "status", operator: "eq", value: "active" }],
  });

  const { result, query } = useCustom<LineAddOn[]>({ url: `/lines/${lineId}/add-ons`, method: "get" });
  const active = query.isSuccess ? result.data : null;
  const error = query.error?.message ?? null;
  const load = () => void query.refetch();
  useSubscription({ channel: "resources/meters", types: ["*"], onLiveEvent: load });

  const [stopping, setStopping] = useState<LineAddOn | null>(null);

  return (
    <Space direction="vertical" size="middle" style={{ width: "100%", marginTop: 16 }}>
      <Card size="small" title={t("addOns.activeTitle")} id="line-add-ons">
        {error && <Alert type="error" showIcon message={error} />}
        {active && active.length === 0 && (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("addOns.noneActive")} />
        )}
        {active && active.length > 0 && (
          <List
            dataSource={active}
            renderItem={(purchase) => (
              <List.Item
                data-testid="active-add-on"
                actions={
                  purchase.autoRenew && stop.available
                    ? [
                        <Button
                          key="stop"
                          size="small"
                          onClick={() => setStopping(purchase)}
                          aria-label={t("addOns.stopRenewalOf", { name: catalogName(purchase) })}
                        >
                          {t("addOns.stopRenewal")}
                        </Button>,
                      ]
                    : []
                }
              >
                <List.Item.Meta
                  title={catalogName(purchase)}
                  description={
                    <>
                      {formatDataMb(purchase.dataMb)} ·{" "}
                      {purchase.autoRenew
                        ? t("addOns.renewsOn", { date: formatDateTime(purchase.expiresAt) })
                        : t("addOns.expiresOn", { date: formatDateTime(purchase.expiresAt) })}
                    </>
                  }
                />
              </List.Item>
            )}
          />
        )}
      </Card>
      {offersPasses && buy.available && (
        <section aria-labelledby="add-ons-on-sale">
          <Typography.Title level={4} id="add-ons-on-sale">
            {t("addOns.onSaleTitle")}
          </Typography.Title>
          <Space direction="vertical" style={{ width: "100%" }}>
            {(catalog?.data ?? []).map((addOn) => (
              <Card key={addOn.id} size="small" data-testid="add-on-card">
                <Space style={{ width: "100%", justifyContent: "space-between" }} wrap>
                  <div>
                    <Typography.Text strong>{catalogName(addOn)}</Typography.Text>
                    <br />
                    <Tag>{kindLabel(addOn)}</Tag>
                    <Typography.Text type="secondary">
                      {formatDataMb(addOn.dataMb)} · {t("addOns.validDays", { days: addOn.validityDays })}
                    </Typography.Text>
                  </div>
                  <Space>
                    <Typography.Text strong>{formatMoney(addOn.price)}</Typography.Text>
                    <Button
                      type="primary"
                      onClick={() => setBuying(addOn)}
                      aria-label={t("addOns.buyNamed", { name: catalogName(addOn) })}
                    >
                      {t("addOns.buy")}
                    </Button>
                  </Space>
                </Space>
              </Card>
            ))}
          </Space>
        </section>
      )}
      {stopping && (
        <StopRenewalDialog
          stop={stop}
          purchase={stopping}
          onClose={(stopped) => {
            setStopping(null);
            if (stopped) load();
          }}
        />
      )}
      {buying && (
        <BuyDialog
          buy={buy}
          addOn={buying}
          onClose={(bought) => {
            buy.reset();
            setBuying(null);
            if (bought) load();
          }}
        />
      )}
    </Space>
  );
}

/** Confirms the price and the auto-renew choice, then buys once (the action's Idempotency-Key holds until an answer, so a retry never charges twice). */
function BuyDialog({ buy, addOn, onClose }: { buy: ResourceAction; addOn: AddOn; onClose: (bought: boolean) => void }) {
  const { message } = App.useApp();
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
      okText={t("addOns.confirmBuy", { price: formatMoney(addOn.price) })}
      cancelText={t("addOns.cancel")}
      onOk={() => void submit()}
      okButtonProps={{ loading: busy, disabled: reasonRequired && !reason.trim() }}
      onCancel={() => onClose(false)}
    >
      <Space direction="vertical" style={{ width: "100%" }}>
        <Typography.Paragraph>
          {t("addOns.buyDetail", {
            price: formatMoney(addOn.price),
            data: formatDataMb(addOn.dataMb),
            days: addOn.validityDays,
          })}
        </Typography.Paragraph>
        {buy.confirmText() && <Typography.Paragraph>{buy.confirmText()}</Typography.Paragraph>}
        <Space align="center">
          <Switch id="add-on-auto-renew" checked={autoRenew} onChange={setAutoRenew} />
          <label htmlFor="add-on-auto-renew">{t("addOns.autoRenewLabel", { days: addOn.validityDays })}</label>
        </Space>
        {reasonRequired && <ReasonField id="add-on-buy-reason" value={reason} onChange={setReason} />}
        {problem && <Alert type="error" showIcon message={problem} role="alert" />}
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
function StopRenewalDialog({
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
