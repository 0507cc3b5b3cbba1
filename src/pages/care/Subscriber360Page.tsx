import { useOne } from "@refinedev/core";
import { Alert, Card, Collapse, Descriptions, Space, Typography } from "antd";
import { Link, useParams } from "react-router";
import type { Subscriber } from "../../resources/subscribers";
import { translate as t } from "../../i18n";
import { formatDateTime, formatMsisdn } from "../../components/format";
import { StatusTag, toneOfStatus } from "../../components/StatusTag";
import { subscriberSections } from "./sections";
import { CallerVerification, useCallerLocked, VerifyCallerFirst } from "./sections/CallerVerification";

/**
 * Everything about one subscriber on one page, for staff at desk width: the account up top (one
 * request), then each section (lines, orders, notices, sign-in methods, audit trail) loading its own
 * page of data only when opened. Actions taken from a section ask for a reason and notify the holder.
 */
export default function Subscriber360Page() {
  const { id = "" } = useParams();
  const { result: subscriber, query } = useOne<Subscriber>({ resource: "subscribers", id });
  const callerLocked = useCallerLocked(subscriber);
  if (query.isError) return <Alert type="error" showIcon message={t("show.notFound")} />;
  return (
    <Space direction="vertical" size="middle" style={{ width: "100%" }}>
      <Card
        loading={query.isLoading}
        title={
          <Space>
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
          <Descriptions size="small" column={4}>
            <Descriptions.Item label={t("fields.accountType")}>
              {t(`enums.accountType.${subscriber.type}`)}
            </Descriptions.Item>
            <Descriptions.Item label={t("fields.email")}>{subscriber.email ?? "—"}</Descriptions.Item>
            <Descriptions.Item label={t("fields.contactPhone")}>
              {subscriber.phone ? formatMsisdn(subscriber.phone) : "—"}
            </Descriptions.Item>
            <Descriptions.Item label={t("fields.createdAt")}>{formatDateTime(subscriber.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t("fields.lineCount")}>{subscriber.lineCount}</Descriptions.Item>
            <Descriptions.Item label={t("care.accountId")}>
              <Typography.Text copyable code>
                {subscriber.id}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      {subscriber && <CallerVerification subscriber={subscriber} onChanged={() => void query.refetch()} />}
      {subscriber && (
        <Collapse
          // Sections load again once the caller is verified (and lock again when it runs out).
          key={callerLocked ? "locked" : "open"}
          defaultActiveKey={subscriberSections.filter((s) => s.open).map((s) => s.key)}
          items={subscriberSections.map(({ key, title, Component }) => ({
            key,
            label: <span data-testid={`section-${key}`}>{t(title)}</span>,
            // Until an agent verifies the caller, only the open tickets show (issue 27).
            children: callerLocked && key !== "tickets" ? <VerifyCallerFirst /> : <Component subscriber={subscriber} />,
          }))}
        />
      )}
    </Space>
  );
}
