import { useEffect, useState } from "react";
import { useList, useSubscription } from "@refinedev/core";
import { Alert, App, Button, Card, Empty, Input, List, Modal, Space, Switch, Tag, Typography } from "antd";
import { translate as t } from "../../i18n";
import { catalogName } from "../../i18n/catalogText";
import { apiRequest } from "../../providers/apiClient";
import type { AddOn, LineAddOn } from "../../resources/addOns";
import { formatDataMb, formatDateTime, formatMoney } from "../format";

const kindLabel = (addOn: Pick<AddOn, "kind" | "roamingZone">) =>
  addOn.kind === "roaming" && addOn.roamingZone
    ? `${t("enums.addOnKind.roaming")} · ${t(`enums.roamingZone.${addOn.roamingZone}`)}`
    : t(`enums.addOnKind.${addOn.kind}`);

/**
 * The add-ons of one line, phone first (360 px): what it has now (with "stop renewal"), and the
 * passes on sale as cards, each bought through a dialog that states the price and the auto-renew choice.
 */
export function LineAddOns({
  lineId,
  canBuy,
  reasonRequired,
}: {
  lineId: string;
  canBuy: boolean;
  reasonRequired: boolean;
}) {
  const [active, setActive] = useState<LineAddOn[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [buying, setBuying] = useState<AddOn | null>(null);
  const { result: catalog } = useList<AddOn>({
    resource: "add-ons",
    pagination: { pageSize: 50 },
    filters: [{ field: "status", operator: "eq", value: "active" }],
  });

  const load = () =>
    apiRequest<LineAddOn[]>(`/lines/${lineId}/add-ons`)
      .then(setActive)
      .catch((e: { message?: string }) => setError(e.message ?? ""));
  useEffect(() => void load(), [lineId]);
  useSubscription({ channel: "resources/meters", types: ["*"], onLiveEvent: () => void load() });

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
                  purchase.autoRenew
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
      {canBuy && (
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
          lineId={lineId}
          purchase={stopping}
          reasonRequired={reasonRequired}
          onClose={(stopped) => {
            setStopping(null);
            if (stopped) void load();
          }}
        />
      )}
      {buying && (
        <BuyDialog
          lineId={lineId}
          addOn={buying}
          reasonRequired={reasonRequired}
          onClose={(bought) => {
            setBuying(null);
            if (bought) void load();
          }}
        />
      )}
    </Space>
  );
}

/** Confirms the price and the auto-renew choice, then buys once (one Idempotency-Key per dialog, so a retry never charges twice). */
function BuyDialog({
  lineId,
  addOn,
  reasonRequired,
  onClose,
}: {
  lineId: string;
  addOn: AddOn;
  reasonRequired: boolean;
  onClose: (bought: boolean) => void;
}) {
  const { message } = App.useApp();
  const [autoRenew, setAutoRenew] = useState(false);
  const [reason, setReason] = useState("");
  const [key] = useState(() => crypto.randomUUID());
  const {
    busy,
    problem,
    submit: buy,
  } = useDialogRequest(async () => {
    await apiRequest(`/lines/${lineId}/actions/buy-add-on`, {
      method: "POST",
      headers: { "idempotency-key": key },
      body: { addOnId: addOn.id, autoRenew, ...(reasonRequired ? { reason } : {}) },
    });
    void message.success(t("addOns.bought", { name: catalogName(addOn) }));
    onClose(true);
  });
  return (
    <Modal
      open
      title={t("addOns.buyTitle", { name: catalogName(addOn) })}
      okText={t("addOns.confirmBuy", { price: formatMoney(addOn.price) })}
      cancelText={t("addOns.cancel")}
      onOk={() => void buy()}
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
  lineId,
  purchase,
  reasonRequired,
  onClose,
}: {
  lineId: string;
  purchase: LineAddOn;
  reasonRequired: boolean;
  onClose: (stopped: boolean) => void;
}) {
  const { message } = App.useApp();
  const [reason, setReason] = useState("");
  const {
    busy,
    problem,
    submit: stop,
  } = useDialogRequest(async () => {
    await apiRequest(`/lines/${lineId}/actions/stop-add-on-renewal`, {
      method: "POST",
      body: { addOnPurchaseId: purchase.id, ...(reasonRequired ? { reason: reason.trim() } : {}) },
    });
    void message.success(t("addOns.renewalStopped", { name: catalogName(purchase) }));
    onClose(true);
  });
  return (
    <Modal
      open
      title={t("addOns.stopRenewalOf", { name: catalogName(purchase) })}
      okText={t("addOns.stopRenewal")}
      cancelText={t("addOns.cancel")}
      onOk={() => void stop()}
      okButtonProps={{ loading: busy, disabled: reasonRequired && !reason.trim() }}
      onCancel={() => onClose(false)}
    >
      <Space direction="vertical" style={{ width: "100%" }}>
        <Typography.Paragraph>
          {t("addOns.expiresOn", { date: formatDateTime(purchase.expiresAt) })}
        </Typography.Paragraph>
        {reasonRequired && <ReasonField id="add-on-stop-reason" value={reason} onChange={setReason} />}
        {problem && <Alert type="error" showIcon message={problem} role="alert" />}
      </Space>
    </Modal>
  );
}

/** A dialog's one request: busy while it runs, and the server's words when it is refused (shown in the dialog). */
function useDialogRequest(request: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await request();
    } catch (e) {
      setProblem((e as { message?: string }).message ?? "");
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, submit };
}
