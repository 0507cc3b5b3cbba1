import { useGetIdentity, useGo, useList } from "@refinedev/core";
import { Alert, Card, Col, Empty, Input, Row, Skeleton, Space, Typography } from "antd";
import { Link } from "react-router";
import { translate as t } from "../i18n";
import type { SessionUser } from "../providers/session";
import type { Line } from "../resources/lines";
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
  const { query, result } = useList<Line>({ resource: "lines", pagination: { pageSize: 50 } });
  if (query.isError) return <Alert type="error" showIcon message={t("list.error", { message: query.error?.message ?? "" })} />;
  return (
    <section aria-labelledby="your-lines">
      <Typography.Title level={3} id="your-lines">
        {t("dashboard.yourLines")}
      </Typography.Title>
      {query.isLoading ? (
        <Skeleton active />
      ) : result.data.length === 0 ? (
        <Empty description={t("dashboard.noLines")} />
      ) : (
        <Row gutter={[16, 16]}>
          {result.data.map((line) => (
            <Col key={line.id} xs={24} md={12} xl={8}>
              <Card
                data-testid="line-card"
                title={
                  <Link to={`/lines/show/${line.id}`}>
                    <FieldValue name="msisdn" spec={linesResource.fields.msisdn} record={line} />
                  </Link>
                }
                extra={<FieldValue name="status" spec={linesResource.fields.status} record={line} />}
              >
                <Typography.Paragraph style={{ marginBottom: 4 }}>
                  <Typography.Text strong>{line.planName}</Typography.Text>
                </Typography.Paragraph>
                <Typography.Text type="secondary">
                  <FieldValue name="accountType" spec={linesResource.fields.accountType} record={line} /> ·{" "}
                  <FieldValue name="simType" spec={linesResource.fields.simType} record={line} />
                </Typography.Text>
              </Card>
            </Col>
          ))}
        </Row>
      )}
    </section>
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
