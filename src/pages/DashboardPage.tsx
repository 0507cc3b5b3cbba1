import { useCustom, useGetIdentity, useGo, useSubscription } from "@refinedev/core";
import { Alert, Card, Col, Empty, Input, Row, Skeleton, Space, Typography } from "antd";
import { Link } from "react-router";
import { translate as t } from "../i18n";
import type { SessionUser } from "../providers/session";
import type { Home, HomeAccount } from "../resources/usage";
import { LineMeters } from "../components/usage/LineMeters";
import { formatMoney, formatMsisdn } from "../components/format";
import { FieldValue } from "../components/FieldValue";
import { linesResource } from "../resources/lines";

/** Home: a subscriber sees their lines at a glance; staff start from finding a subscriber. */
export function DashboardPage() {
  const { data: user } = useGetIdentity<SessionUser>();
  if (!user) return <Skeleton active />;
  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <Typography.Title level={2} style={{ margin: 0 }}>
        {t("dashboard.greeting", { name: user.name.split(" ")[0] })}
      </Typography.Title>
      {user.role === "subscriber" ? <SubscriberLines /> : <StaffSearch />}
    </Space>
  );
}

function SubscriberLines() {
  // One request for the whole home page (lines, plans, meters); meters refetch when the network counts usage.
  const { query, result } = useCustom<Home>({ url: "/home", method: "get" });
  useSubscription({ channel: "resources/meters", types: ["*"], onLiveEvent: () => void query.refetch() });
  if (query.isError) return <Alert type="error" showIcon message={t("usage.home.error", { message: query.error?.message ?? "" })} />;
  const lines = result.data?.lines;
  return (
    <section aria-labelledby="your-lines">
      <Typography.Title level={3} id="your-lines">
        {t("dashboard.yourLines")}
      </Typography.Title>
      {!lines ? (
        <Skeleton active />
      ) : lines.length === 0 ? (
        <Empty description={t("dashboard.noLines")} />
      ) : (
        <Row gutter={[16, 16]}>
          {lines.map((line) => (
            <Col key={line.id} xs={24} md={12} xl={8}>
              <Card
                data-testid="line-card"
                aria-label={t("usage.home.line", { msisdn: formatMsisdn(line.msisdn) })}
                title={<Link to={`/lines/show/${line.id}`}>{formatMsisdn(line.msisdn)}</Link>}
                extra={<FieldValue name="status" spec={linesResource.fields.status} record={line} />}
              >
                <Typography.Paragraph style={{ marginBottom: 12 }}>
                  <Typography.Text strong>{line.plan.name}</Typography.Text>{" "}
                  <Typography.Text type="secondary">
                    · {t("units.perMonth", { price: formatMoney(line.plan.price) })} · <FieldValue name="accountType" spec={linesResource.fields.accountType} record={line} />
                  </Typography.Text>
                </Typography.Paragraph>
                <AccountMoneyLine account={result.data?.accounts.find((a) => a.id === line.accountId)} />
                <LineMeters meters={line.meters} daysLeft={line.daysLeft} />
              </Card>
            </Col>
          ))}
        </Row>
      )}
    </section>
  );
}

/** The prepaid balance or postpaid amount due of the line's account, as the ledger has it. */
function AccountMoneyLine({ account }: { account: HomeAccount | undefined }) {
  if (!account?.balance && !account?.amountDue) return null;
  return (
    <Typography.Paragraph style={{ marginBottom: 12 }} data-testid="account-money">
      {account.balance ? (
        <>
          {t("usage.money.balance", { amount: formatMoney(account.balance) })} · <Link to="/top-up" style={{ textDecoration: "underline" }}>
            {t("topUp.title")}
          </Link>
        </>
      ) : (
        t("usage.money.amountDue", { amount: formatMoney(account.amountDue!) })
      )}
    </Typography.Paragraph>
  );
}

function StaffSearch() {
  const go = useGo();
  return (
    <Card title={t("dashboard.findSubscriber")}>
      <Input.Search
        aria-label={t("dashboard.findPlaceholder")}
        placeholder={t("dashboard.findPlaceholder")}
        enterButton={t("dashboard.find")}
        size="large"
        allowClear
        onSearch={(value) =>
          go({ to: { resource: "lines", action: "list" }, query: { filters: [{ field: "q", operator: "eq", value: value.trim() }] }, type: "push" })
        }
      />
    </Card>
  );
}
