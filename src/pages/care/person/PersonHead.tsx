import { Card, Descriptions, Space, Typography } from "antd";
import { Link } from "react-router";
import type { Subscriber } from "../../../resources/subscribers";
import { translate as t } from "../../../i18n";
import { formatMsisdn } from "../../../components/format";
import { StatusTag, toneOfStatus } from "../../../components/StatusTag";

/**
 * The head of the 360: the person (the holder of the opened account) by name, how to reach them, and
 * how many accounts they hold. Each account follows below with its own lines and sections.
 */
export function PersonHead({
  subscriber,
  accounts,
  loading,
}: {
  subscriber: Subscriber | undefined;
  accounts: readonly Subscriber[];
  loading: boolean;
}) {
  const count = Math.max(accounts.length, subscriber ? 1 : 0);
  return (
    <Card
      loading={loading}
      title={
        <Space wrap>
          <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }} data-testid="subscriber-name">
            {subscriber?.name}
          </Typography.Title>
          {subscriber && (
            <StatusTag tone={toneOfStatus(subscriber.status)}>{t(`enums.status.${subscriber.status}`)}</StatusTag>
          )}
        </Space>
      }
      extra={<Link to="/subscribers">{t("care.backToSearch")}</Link>}
    >
      {subscriber && (
        <Descriptions size="small" column={3}>
          <Descriptions.Item label={t("fields.email")}>{subscriber.email ?? "—"}</Descriptions.Item>
          <Descriptions.Item label={t("fields.contactPhone")}>
            {subscriber.phone ? formatMsisdn(subscriber.phone) : "—"}
          </Descriptions.Item>
          <Descriptions.Item label={t("care.search.accounts")}>
            <span data-testid="person-account-count">
              {count === 1 ? t("care.person.account") : t("care.person.accounts", { count })}
            </span>
          </Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}
