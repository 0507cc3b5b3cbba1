import { Alert, Space, Typography } from "antd";
import { Link } from "react-router";
import { translate as t } from "../../i18n";

/** The operator's build-time top-up payment setting: "" = no card gateway (ATT), "sandbox" = the local test gateway. */
const TOP_UP_PAYMENT = ((import.meta.env.VITE_TOPUP_PAYMENT_SETTING as string | undefined) ?? "").trim();

/**
 * Top up a prepaid balance, phone first (360 px). Card entry is not part of this build: with the
 * operator's setting empty (ATT) — and, until the gateway is wired in, with any setting — the page
 * says card top-up is unavailable and sends the subscriber to vouchers (redeemed on the account).
 */
export function TopUpPage({ gateway = TOP_UP_PAYMENT }: { gateway?: string }) {
  return (
    <Space direction="vertical" size="large" style={{ width: "100%", maxWidth: 720 }} data-gateway={gateway || "none"}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        {t("topUp.title")}
      </Typography.Title>
      <Alert
        type="info"
        showIcon
        role="status"
        data-testid="top-up-unavailable"
        message={t("topUp.unavailable.title")}
        description={
          <Space direction="vertical">
            <span>{t("topUp.unavailable.body")}</span>
            <Link to="/accounts">{t("topUp.unavailable.vouchers")}</Link>
          </Space>
        }
      />
    </Space>
  );
}
