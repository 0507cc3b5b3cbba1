import { useMemo, useState } from "react";
import { useCustom, useGetIdentity } from "@refinedev/core";
import { Alert, Card, Col, DatePicker, Row, Skeleton, Space, Statistic, Table, Typography } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import type { KpiReport } from "../../resources/kpis";
import { translate as t } from "../../i18n";
import { formatMoney } from "../../components/format";
import { DailyChart } from "../../components/charts/DailyChart";
import { useWidth } from "../../components/charts/useWidth";

const DAY = "YYYY-MM-DD";
const sum = (values: number[]) => values.reduce((n, v) => n + v, 0);

/** The operator's KPIs for its admins: a period (the last 30 days unless chosen), totals, and the days as charts. */
export function KpiPage() {
  const { data: identity } = useGetIdentity<{ role?: string }>();
  const [period, setPeriod] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(29, "day"), dayjs()]);
  const from = period[0].format(DAY);
  const to = period[1].format(DAY);
  // The layout shows others a 403 (accessControlProvider); the request waits for the role to be known.
  const isAdmin = identity?.role === "admin";
  const { query, result } = useCustom<KpiReport>({
    url: `/kpis?from=${from}&to=${to}`,
    method: "get",
    queryOptions: { enabled: isAdmin },
  });
  const { ref, width } = useWidth();
  // Refine answers an empty object until the first answer arrives.
  const report = query.isSuccess ? result.data : undefined;

  const charts = useMemo(() => {
    if (!report) return null;
    const days = report.days.map((d) => d.day);
    const money = (amount: number) => formatMoney({ amount, currency: report.currency });
    return {
      days,
      lines: [
        { label: t("kpis.newLines"), color: "#0057b8", values: report.days.map((d) => d.newLines) },
        { label: t("kpis.churnedLines"), color: "#b42318", values: report.days.map((d) => d.churnedLines) },
      ],
      // Dollars on the axis (minor units / 100), the locale's money in the accessible table.
      money: [
        {
          label: t("kpis.topUps"),
          color: "#067647",
          values: report.days.map((d) => d.topUps.amount / 100),
          format: (v: number) => money(Math.round(v * 100)),
        },
        {
          label: t("kpis.payments"),
          color: "#6941c6",
          values: report.days.map((d) => d.payments.amount / 100),
          format: (v: number) => money(Math.round(v * 100)),
        },
      ],
    };
  }, [report]);

  return (
    <Space direction="vertical" size="large" style={{ width: "100%" }}>
      <Card
        title={
          <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }}>
            {t("kpis.title")}
          </Typography.Title>
        }
        extra={
          <DatePicker.RangePicker
            aria-label={t("kpis.period")}
            value={period}
            allowClear={false}
            disabledDate={(day) => day.isAfter(dayjs(), "day")}
            onChange={(range) => range?.[0] && range[1] && setPeriod([range[0], range[1]])}
          />
        }
      >
        {query.isError && <Alert type="error" showIcon message={t("kpis.failed")} />}
        {!report ? (
          <Skeleton active />
        ) : (
          <Row gutter={[16, 16]}>
            <Col xs={12} md={6}>
              <Statistic title={t("kpis.activeLines")} value={report.activeLines} />
            </Col>
            <Col xs={12} md={6}>
              <Statistic
                title={t("kpis.newAndChurned")}
                value={`+${sum(report.days.map((d) => d.newLines))} / −${sum(report.days.map((d) => d.churnedLines))}`}
              />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title={t("kpis.arpu")} value={formatMoney(report.arpu)} />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title={t("kpis.revenue")} value={formatMoney(report.revenue)} />
            </Col>
          </Row>
        )}
      </Card>
      <div ref={ref}>
        {charts && report && (
          <Space direction="vertical" size="large" style={{ width: "100%" }}>
            <Card
              title={
                <Typography.Title level={3} style={{ margin: 0, fontSize: 16 }}>
                  {t("kpis.linesChart")}
                </Typography.Title>
              }
            >
              <DailyChart
                days={charts.days}
                series={charts.lines}
                width={width - 48}
                caption={t("kpis.linesChart")}
                testId="kpi-lines-chart"
              />
            </Card>
            <Card
              title={
                <Typography.Title level={3} style={{ margin: 0, fontSize: 16 }}>
                  {t("kpis.moneyChart")}
                </Typography.Title>
              }
            >
              <DailyChart
                days={charts.days}
                series={charts.money}
                width={width - 48}
                caption={t("kpis.moneyChart")}
                testId="kpi-money-chart"
              />
            </Card>
            <Card
              title={
                <Typography.Title level={3} style={{ margin: 0, fontSize: 16 }}>
                  {t("kpis.openTickets")}
                </Typography.Title>
              }
            >
              <Table
                size="small"
                pagination={false}
                rowKey="bucket"
                dataSource={report.openTicketsByAge}
                columns={[
                  { title: t("kpis.age"), dataIndex: "bucket", render: (bucket: string) => t(`kpis.ages.${bucket}`) },
                  { title: t("kpis.tickets"), dataIndex: "count", align: "right" },
                ]}
              />
            </Card>
          </Space>
        )}
      </div>
    </Space>
  );
}
